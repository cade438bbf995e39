import { filterFieldOf, type FilterSpec, type PetFilterName, type PetFilters, sameFilters } from '@petstore/contract';
import { useEffect, useId, useState } from 'react';
import { TextField } from './controls';
import { describeFieldProblem } from './field-problem-words';
import { filterLabel, filtersKey, filterValueFrom, typedFilters } from './list-filters';

/** How long typing must pause before the list is asked for: one search per pause, not one per key. */
export const SEARCH_PAUSE_MS = 300;

interface Props {
  filters: PetFilters;
  onChange(filters: PetFilters): void;
}

/** What each box holds, by filter. */
type Typed = Partial<Record<PetFilterName, string>>;

const typedOf = (filters: PetFilters): Typed => Object.fromEntries(typedFilters().map(([filter]) => [filter, String(filters[filter] ?? '')]));

/** `filters` without those typed here: the choices, carried through as they are. */
function chosenIn(filters: PetFilters): PetFilters {
  const chosen = { ...filters };
  for (const [filter] of typedFilters()) delete chosen[filter];
  return chosen;
}

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
  const [typed, setTyped] = useState<Typed>(() => typedOf(filters));
  const [shown, setShown] = useState(filters);
  const { filters: wanted, problems } = read(typed);
  const next: PetFilters = { ...chosenIn(filters), ...wanted };

  // Filters changed from elsewhere (back and forward, a choice): the boxes show them, unless they already say so.
  if (!sameFilters(shown, filters)) {
    setShown(filters);
    if (!sameFilters(next, filters)) setTyped(typedOf(filters));
  }

  const changed = Object.keys(problems).length === 0 && !sameFilters(next, filters);
  // `next` is made anew each render: these keys name what it follows, so that a change of them starts a new timer.
  const typedKey = JSON.stringify(typedFilters().map(([filter]) => typed[filter]));
  const nextKey = filtersKey(next);
  useEffect(() => {
    if (!changed) return;
    const timer = setTimeout(() => onChange(next), SEARCH_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [changed, typedKey, nextKey]);

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
