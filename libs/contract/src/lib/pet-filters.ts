import { type FieldRule, PET_STATUS_RULE } from './new-pet-rules';
import { type Pet, PET_FIELDS } from './pet';
import type { FieldSpec } from './pet-field';
import { CATEGORY_FILTER_RULE, NAME_SEARCH_RULE, nameSearchKey } from './pet-search';

/** One listPets filter: the field of Pet it reads, how it compares, the rule its value follows and its words. */
export type FilterSpec = {
  /** The rule a value follows in the query: the document's, the service's, and a client's before sending. */
  readonly rule: FieldRule;
  /** The OpenAPI document's description. */
  readonly description: string;
  /** What it does, in a few words for people: the CLI's help. */
  readonly hint: string;
} & (
  | {
      /** The field is the value. The database serves it with the index `pets_<column>_id` on (column, id). */
      readonly match: 'equals';
      readonly field: keyof Pet & string;
    }
  | {
      /**
       * The field's nameSearchKey contains the value's. Served by the name's key column and its piece indexes, which
       * only `name` has: another field would need the same.
       */
      readonly match: 'contains';
      readonly field: 'name';
    }
);

/** A filter's spec as it is written, its field kept by name: the type of a filter's value is its field's. */
const filterOn = <F extends keyof Pet & string>(spec: FilterSpec & { readonly field: F }) => spec;

/**
 * listPets' filters, in the document's order (after `limit`, before `cursor`): the one place a filter is described.
 * The query's DTO and the document, the page statements on both databases, the `next` link, the client's requests, the
 * CLI's options and the storefront's controls follow from it; the client's parameter lists are held to it by their
 * spec (docs/architecture.md, "Where to change what").
 */
export const PET_FILTERS = Object.freeze({
  status: filterOn({
    field: 'status',
    match: 'equals',
    rule: PET_STATUS_RULE,
    description: 'Return only animals with this status.',
    hint: 'only pets with this status',
  }),
  name: filterOn({
    field: 'name',
    match: 'contains',
    rule: NAME_SEARCH_RULE,
    description:
      'Return only animals whose name contains this text, ignoring case ("ÉLO" finds "Éloïse"; "strasse" finds ' +
      '"Straße"). Compatibility forms such as full-width letters match their plain letters; accents are kept. ' +
      '1 to 100 characters, not only whitespace, without control characters.',
    hint: 'only pets whose name contains this text, in any case ("rex" finds "T-Rex")',
  }),
  categoryId: filterOn({
    field: 'categoryId',
    match: 'equals',
    rule: CATEGORY_FILTER_RULE,
    description: 'Return only animals of this category.',
    hint: 'only pets of this category',
  }),
});

/** A listPets filter's query parameter. */
export type PetFilterName = keyof typeof PET_FILTERS;

/** Values of listPets' filters, each of its field's type; a filter left out is not applied. */
export type PetFilters = { -readonly [F in PetFilterName]?: NonNullable<Pet[(typeof PET_FILTERS)[F]['field']]> };

// Read once: every list request walks them several times.
const FILTER_ENTRIES = Object.entries(PET_FILTERS) as Array<[PetFilterName, FilterSpec]>;

/** The filters in the document's order, each with its spec. */
export const filterEntries = (): Array<[PetFilterName, FilterSpec]> => [...FILTER_ENTRIES];

/** The kind of the field a filter reads: what its value is (a whole number, text, one of a set). */
export const filterFieldOf = (spec: FilterSpec): FieldSpec => PET_FIELDS[spec.field];

/** The filters among `values` (a query's, a page's address's), those left out or `null` dropped. */
export function filtersIn(values: { readonly [F in PetFilterName]?: unknown }): PetFilters {
  const filters: Record<string, unknown> = {};
  for (const [filter] of filterEntries()) {
    const value = values[filter];
    if (value !== undefined && value !== null) filters[filter] = value;
  }
  return filters as PetFilters;
}

/** Whether `pet` belongs in a list with these filters: the service's own comparison, as its statements make it. */
export function passesFilters(pet: Pet, filters: PetFilters): boolean {
  return filterEntries().every(([filter, spec]) => {
    const value = filters[filter];
    if (value === undefined) return true;
    return spec.match === 'equals' ? pet[spec.field] === value : nameSearchKey(pet[spec.field]).includes(nameSearchKey(value as string));
  });
}

/** Whether the two hold the same filters. */
export const sameFilters = (a: PetFilters, b: PetFilters): boolean => filterEntries().every(([filter]) => a[filter] === b[filter]);
