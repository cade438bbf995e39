import { filterFieldOf, type FilterSpec, type PetFilterName, type PetFilters, sameFilters } from '@petstore/contract';
import { useEffect, useId, useState } from 'react';
import { TextField } from './controls';
import { describeFieldProblem } from './field-problem-words';
import { filterLabel, filterValueFrom, typedFilters } from './list-filters';

/** How long typing must pause before the list is asked for: one search per pause, not one per key. */
export const SEARCH_PAUSE_MS = 300;

interface Props {
  /** The list's filters: the boxes start from them. */
  filters: PetFilters;
  /** The typed filters, every one of them (undefined: none), once typing pauses; the choices are not the boxes' to say. */
  onChange(change: PetFilters): void;
}

/** What each box holds, by filter. */
type Typed = Partial<Record<PetFilterName, string>>;

const typedOf = (filters: PetFilters): Typed => Object.fromEntries(typedFilters().map(([filter]) => [filter, String(filters[filter] ?? '')]));

/** The typed filters of `filters`, each named even when undefined: a change of them that leaves the choices be. */
const typedIn = (filters: PetFilters): PetFilters => Object.fromEntries(typedFilters().map(([filter]) => [filter, filters[filter]])) as PetFilters;

/**
 * What the boxes hold, as filters, or the problem of each box the service would refuse. An empty box, or one of
 * spaces only, is no filter; text is otherwise sent as typed, a whole number read as the form reads one.
 */
function read(typed: Typed): { filters: PetFilters; problems: Typed } {
  const filters: Record<string, unknown> = {};
  const problems: Typed = {};
  for (const [filter, spec] of typedFilters()) {
    const text = typed[filter] ?? '';
    const value = /\S/u.test(text) ? filterValueFrom(spec, text) : undefined;
    if (value === undefined) continue;
    const problem = spec.rule.check(value);
    if (problem) problems[filter] = describeFieldProblem(filterFieldOf(spec).label, problem, value);
    else filters[filter] = value;
  }
  return { filters: filters as PetFilters, problems };
}

/** A search box for a filter that finds a part; a number pad for a whole number; a date picker for a day. */
function inputOf(spec: FilterSpec): { type?: 'search' | 'date'; inputMode?: 'numeric' } {
  const { kind } = filterFieldOf(spec);
  if (spec.match === 'contains') return { type: 'search' };
  if (kind === 'date') return { type: 'date' };
  return kind === 'integer' ? { inputMode: 'numeric' } : {};
}

/**
 * A box per filter that is not a choice ("Search by name", "Filter by category"): what is typed becomes the list's
 * filters once typing pauses (SEARCH_PAUSE_MS), and only when the service would take it; until then the list stays.
 */
export function SearchFields({ filters, onChange }: Props) {
  const id = useId();
  // The boxes' own once started: the filters coming back changed (a choice made meanwhile, a search landing) say
  // nothing of what was typed since, so they never overwrite it. Back and Forward start the boxes afresh (App).
  const [typed, setTyped] = useState<Typed>(() => typedOf(filters));
  const { filters: wanted, problems } = read(typed);
  const changed = Object.keys(problems).length === 0 && !sameFilters(wanted, typedIn(filters));
  // What was typed, as text: each keystroke starts the pause anew.
  const typedKey = JSON.stringify(typedFilters().map(([filter]) => typed[filter]));
  useEffect(() => {
    if (!changed) return;
    const timer = setTimeout(() => onChange(typedIn(wanted)), SEARCH_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [changed, typedKey]);

  return (
    <div className="search">
      {typedFilters().map(([filter, spec]) => (
        <TextField
          key={filter}
          id={`${id}-${filter}`}
          label={filterLabel(spec)}
          {...inputOf(spec)}
          value={typed[filter] ?? ''}
          problem={problems[filter]}
          onChange={(text) => setTyped((before) => ({ ...before, [filter]: text }))}
        />
      ))}
    </div>
  );
}
