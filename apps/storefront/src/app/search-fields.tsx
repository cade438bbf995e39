import { CATEGORY_FILTER_RULE, NAME_SEARCH_RULE, PET_FIELDS } from '@petstore/contract';
import { useEffect, useId, useState } from 'react';
import { TextField } from './controls';
import { valueFrom } from './field-input';
import { describeFieldProblem } from './field-problem-words';
import { type ListFilters, sameFilters } from './list-filters';

/** How long typing must pause before the list is asked for: one search per pause, not one per key. */
export const SEARCH_PAUSE_MS = 300;

interface Props {
  filters: ListFilters;
  onChange(filters: ListFilters): void;
}

interface Typed {
  name: string;
  category: string;
}

const typedOf = ({ name, categoryId }: ListFilters): Typed => ({ name: name ?? '', category: categoryId === undefined ? '' : String(categoryId) });

/**
 * What the boxes hold, as filters, or the problem of each box the service would refuse. An empty box, or one of
 * spaces only, is no filter; the name is otherwise sent as typed.
 */
function read({ name, category }: Typed): { filters: Omit<ListFilters, 'status'>; nameProblem?: string; categoryProblem?: string } {
  const filters: Omit<ListFilters, 'status'> = {};
  let nameProblem: string | undefined;
  let categoryProblem: string | undefined;
  if (/\S/u.test(name)) {
    const problem = NAME_SEARCH_RULE.check(name);
    if (problem) nameProblem = describeFieldProblem(PET_FIELDS.name.label, problem, name);
    else filters.name = name;
  }
  // Read as the form reads a category (valueFrom), held to the filter's rule.
  const value = valueFrom(PET_FIELDS.categoryId, category);
  if (value !== undefined) {
    const problem = CATEGORY_FILTER_RULE.check(value);
    if (problem) categoryProblem = describeFieldProblem(PET_FIELDS.categoryId.label, problem, value);
    else filters.categoryId = value as number;
  }
  return { filters, nameProblem, categoryProblem };
}

/**
 * "Search by name" and "Filter by category": what is typed becomes the list's filters once typing pauses
 * (SEARCH_PAUSE_MS), and only when the service would take it; until then the list stays as it was.
 */
export function SearchFields({ filters, onChange }: Props) {
  const id = useId();
  const [typed, setTyped] = useState<Typed>(() => typedOf(filters));
  const [shown, setShown] = useState(filters);
  const { filters: wanted, nameProblem, categoryProblem } = read(typed);

  // Filters changed from elsewhere (back and forward, the status): the boxes show them, unless they already say so.
  if (!sameFilters(shown, filters)) {
    setShown(filters);
    if (!sameFilters({ ...wanted, status: filters.status }, filters)) setTyped(typedOf(filters));
  }

  const valid = nameProblem === undefined && categoryProblem === undefined;
  const next: ListFilters = { ...wanted, status: filters.status };
  const changed = valid && !sameFilters(next, filters);
  useEffect(() => {
    if (!changed) return;
    const timer = setTimeout(() => onChange(next), SEARCH_PAUSE_MS);
    return () => clearTimeout(timer);
    // `next` is made anew each render from `typed` and the status, which these name: a new timer per change of them.
  }, [changed, typed.name, typed.category, filters.status]);

  return (
    <div className="search">
      <TextField
        id={`${id}-name`}
        label="Search by name"
        type="search"
        value={typed.name}
        problem={nameProblem}
        onChange={(name) => setTyped((before) => ({ ...before, name }))}
      />
      <TextField
        id={`${id}-category`}
        label="Filter by category"
        inputMode="numeric"
        value={typed.category}
        problem={categoryProblem}
        onChange={(category) => setTyped((before) => ({ ...before, category }))}
      />
    </div>
  );
}
