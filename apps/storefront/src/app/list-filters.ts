import { CATEGORY_FILTER_RULE, isPetStatus, NAME_SEARCH_RULE, nameSearchKey, type Pet, PET_FIELDS, type PetStatus } from '@petstore/contract';
import { valueFrom } from './field-input';

// The list's filters live in the page's address (`?status=sold&name=rex&categoryId=3`), so that a reload or a shared
// link keeps them. Each is listPets' parameter of the same name, held to the contract's rule.

export interface ListFilters {
  status?: PetStatus;
  name?: string;
  categoryId?: number;
}

/** A category written in the address, as its number, read as the form reads one; anything else is not one. */
const categoryFrom = (text: string): number | undefined => {
  const value = valueFrom(PET_FIELDS.categoryId, text);
  return CATEGORY_FILTER_RULE.accepts(value) ? (value as number) : undefined;
};

/** The filters of an address; a value the service would refuse is no filter. */
export function filtersInUrl(search: string = window.location.search): ListFilters {
  const query = new URLSearchParams(search);
  const status = query.get('status');
  const name = query.get('name') ?? undefined;
  const filters: ListFilters = {};
  if (isPetStatus(status)) filters.status = status;
  if (NAME_SEARCH_RULE.accepts(name)) filters.name = name;
  const categoryId = categoryFrom(query.get('categoryId') ?? '');
  if (categoryId !== undefined) filters.categoryId = categoryId;
  return filters;
}

/** The page's address with these filters (none: all pets), the rest of its query kept; a space written `%20`. */
export function urlWithFilters(filters: ListFilters, location: Pick<Location, 'pathname' | 'search' | 'hash'> = window.location): string {
  const query = new URLSearchParams(location.search);
  const values: Record<keyof ListFilters, string | undefined> = {
    status: filters.status,
    name: filters.name,
    categoryId: filters.categoryId === undefined ? undefined : String(filters.categoryId),
  };
  for (const [parameter, value] of Object.entries(values)) {
    if (value === undefined) query.delete(parameter);
    else query.set(parameter, value);
  }
  const search = query.toString().replace(/\+/g, '%20');
  return `${location.pathname}${search ? `?${search}` : ''}${location.hash}`;
}

/** Whether the two hold the same filters. */
export const sameFilters = (a: ListFilters, b: ListFilters): boolean => a.status === b.status && a.name === b.name && a.categoryId === b.categoryId;

/** Whether `pet` belongs in a list with these filters: the service's own comparison of names (nameSearchKey). */
export const passesFilters = (pet: Pet, { status, name, categoryId }: ListFilters): boolean =>
  (status === undefined || pet.status === status) &&
  (categoryId === undefined || pet.categoryId === categoryId) &&
  (name === undefined || nameSearchKey(pet.name).includes(nameSearchKey(name)));
