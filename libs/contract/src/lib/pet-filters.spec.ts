import { type Pet, PET_FIELDS } from './pet';
import { filterEntries, filterFieldOf, filtersIn, PET_FILTERS, passesFilters, sameFilters } from './pet-filters';
import { PetStatus } from './pet-status';

const rex: Pet = { id: 1, name: 'Straße Rex', categoryId: 3, status: PetStatus.Sold };

describe('PET_FILTERS', () => {
  it('reads a field of Pet each, status and category by equality, name by a part of it', () => {
    expect([PET_FILTERS.status, PET_FILTERS.name, PET_FILTERS.categoryId].map(({ field, match }) => [field, match])).toEqual([
      ['status', 'equals'],
      ['name', 'contains'],
      ['categoryId', 'equals'],
    ]);
    expect(filterEntries().slice(0, 3).map(([filter]) => filter)).toEqual(['status', 'name', 'categoryId']);
    for (const [, spec] of filterEntries()) expect(filterFieldOf(spec)).toBe(PET_FIELDS[spec.field]);
  });

  it('says in a few words what each keeps, for the CLI\'s help', () => {
    for (const [filter, spec] of filterEntries()) expect({ filter, hint: spec.hint }).toEqual({ filter, hint: expect.stringMatching(/^only pets \w+ \S/) });
  });

  it("holds each value to the filter's rule", () => {
    expect(PET_FILTERS.status.rule.accepts('sold')).toBe(true);
    expect(PET_FILTERS.status.rule.accepts('lost')).toBe(false);
    expect(PET_FILTERS.name.rule.accepts('a\u0007b')).toBe(false);
    expect(PET_FILTERS.categoryId.rule.accepts('3')).toBe(false);
    expect(PET_FILTERS.categoryId.rule.accepts(3)).toBe(true);
  });
});

describe(filtersIn.name, () => {
  it('takes the filters, in their order, and leaves out what is absent, null, or not a filter', () => {
    const filters = filtersIn({ categoryId: 3, name: null, status: PetStatus.Sold, ...{ limit: 5, cursor: 'c' } } as Parameters<typeof filtersIn>[0]);
    expect(Object.entries(filters)).toEqual([
      ['status', 'sold'],
      ['categoryId', 3],
    ]);
    expect(Object.entries(filtersIn({ status: undefined, name: 'Rex' }))).toEqual([['name', 'Rex']]);
    expect(filtersIn({})).toEqual({});
  });
});

describe(passesFilters.name, () => {
  it.each([
    [{}, true],
    [{ status: PetStatus.Sold }, true],
    [{ status: PetStatus.Available }, false],
    [{ categoryId: 3 }, true],
    [{ categoryId: 4 }, false],
    [{ name: 'STRASSE' }, true],
    [{ name: 'ｒｅｘ' }, true],
    [{ name: 'rexa' }, false],
    [{ name: 'rex', status: PetStatus.Sold, categoryId: 3 }, true],
    [{ name: 'rex', status: PetStatus.Sold, categoryId: 2 }, false],
  ])('with %j: %s', (filters, passes) => {
    expect(passesFilters(rex, filters)).toBe(passes);
  });
});

describe(sameFilters.name, () => {
  it('compares every filter, an absent one equal only to an absent one', () => {
    expect(sameFilters({}, {})).toBe(true);
    expect(sameFilters({ name: 'rex', categoryId: 3 }, { categoryId: 3, name: 'rex' })).toBe(true);
    expect(sameFilters({ name: 'rex' }, { name: 'Rex' })).toBe(false);
    expect(sameFilters({ status: PetStatus.Sold }, {})).toBe(false);
    expect(sameFilters({}, { categoryId: 3 })).toBe(false);
  });
});
