import { filterEntries, filterFieldOf, type FilterSpec, type PetFilterName, type PetFilters } from '@petstore/contract';
import { valueFrom } from './field-input';

// The list's filters live in the page's address (`?status=sold&name=rex&categoryId=3`), so that a reload or a shared
// link keeps them. Each is listPets' parameter of the same name, held to the contract's rule: every filter of
// PET_FILTERS, in its order, with nothing here to change when one is added.

/** Whether a filter is chosen among its field's values (a select) rather than typed in a box. */
export const isChoice = (spec: FilterSpec): boolean => filterFieldOf(spec).kind === 'choice';

/** The filters typed in a box, in the contract's order. */
export const typedFilters = (): Array<[PetFilterName, FilterSpec]> => filterEntries().filter(([, spec]) => !isChoice(spec));

/** "Search by name" for a filter that finds a part, "Filter by category" for one that must be the field. */
export const filterLabel = (spec: FilterSpec): string => `${spec.match === 'contains' ? 'Search' : 'Filter'} by ${filterFieldOf(spec).label.toLowerCase()}`;

/** The value `text` stands for, read as the form reads its field (a whole number's digits, a number). */
export const filterValueFrom = (spec: FilterSpec, text: string): unknown => valueFrom(filterFieldOf(spec), text);

/** The same filters always give the same text: a hook's dependency that is not a new object each render. */
export const filtersKey = (filters: PetFilters): string => JSON.stringify(filterEntries().map(([filter]) => filters[filter] ?? null));

/**
 * `filters` with `change` made: each filter `change` names takes its value, or is dropped when that is undefined; the
 * others stay. A change names only what it changes, so that it composes with any other made before it.
 */
export function changedFilters(filters: PetFilters, change: PetFilters): PetFilters {
  const changed: Record<string, unknown> = { ...filters, ...change };
  for (const [filter] of filterEntries()) if (changed[filter] === undefined) delete changed[filter];
  return changed as PetFilters;
}

/** The filters of an address; a value the service would refuse is no filter. */
export function filtersInUrl(search: string = window.location.search): PetFilters {
  const query = new URLSearchParams(search);
  const filters: Record<string, unknown> = {};
  for (const [filter, spec] of filterEntries()) {
    const value = filterValueFrom(spec, query.get(filter) ?? '');
    if (value !== undefined && spec.rule.accepts(value)) filters[filter] = value;
  }
  return filters as PetFilters;
}

/** The page's address with these filters (none: all pets), the rest of its query kept; a space written `%20`. */
export function urlWithFilters(filters: PetFilters, location: Pick<Location, 'pathname' | 'search' | 'hash'> = window.location): string {
  const query = new URLSearchParams(location.search);
  for (const [filter] of filterEntries()) {
    const value = filters[filter];
    if (value === undefined) query.delete(filter);
    else query.set(filter, String(value));
  }
  const search = query.toString().replace(/\+/g, '%20');
  return `${location.pathname}${search ? `?${search}` : ''}${location.hash}`;
}
