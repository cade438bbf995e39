import fc from 'fast-check';
import { PetStatus } from '@petstore/contract';
import type { PetPageQuery } from '../pet.store';
import { type PageStatement, statementKey } from './pet-page-sql';
import { postgresPageStatement } from './postgres-pet.store';
import { sqlitePageStatement } from './sqlite-pet.store';

const DIALECTS: Array<[string, (query: PetPageQuery) => PageStatement]> = [
  ['SQLite', sqlitePageStatement],
  ['PostgreSQL', postgresPageStatement],
];

/**
 * Values of every field of a page's query, each different from the others: a field's absence, values the index serves
 * and values it does not. Typed over every field of PetPageQuery, so that a field added to the query fails the
 * type-check here until it has values, and then this test until its statement, and so the key of shared reads, tells
 * them apart.
 */
const FIELD_VALUES: { [F in keyof Required<PetPageQuery>]: Array<PetPageQuery[F]> } = {
  status: [undefined, PetStatus.Available, PetStatus.Pending, PetStatus.Sold],
  categoryId: [undefined, 1, 2, 9007199254740991],
  nameKey: [undefined, 'r', 're', 'rex', 'rexa', 'x"y', '%', '_', '\\', '"'],
  afterId: [0, 1, 2, 9007199254740991],
  take: [1, 2, 21, 101],
};

const query: fc.Arbitrary<PetPageQuery> = fc.record(
  Object.fromEntries(Object.entries(FIELD_VALUES).map(([field, values]) => [field, fc.constantFrom(...values)])) as {
    [F in keyof PetPageQuery]: fc.Arbitrary<PetPageQuery[F]>;
  },
);

/** The query with absent fields left out, as two equal questions are equal. */
const normalised = (page: PetPageQuery) => JSON.stringify(Object.entries(page).filter(([, value]) => value !== undefined).sort());

describe('the statement of a page, which keys its shared reads', () => {
  describe.each(DIALECTS)('on %s', (_, statementOf) => {
    it.each(Object.keys(FIELD_VALUES) as Array<keyof PetPageQuery>)('tells every value of %s apart, whatever the other fields are', (field) => {
      fc.assert(
        fc.property(query, (base) => {
          const keys = FIELD_VALUES[field].map((value) => statementKey(statementOf({ ...base, [field]: value })));
          expect(new Set(keys).size).toBe(keys.length);
        }),
        { seed: 5601, numRuns: 200 },
      );
    });

    it('gives two queries the same key exactly when they ask the same', () => {
      fc.assert(
        fc.property(query, query, (one, other) => {
          const sameKey = statementKey(statementOf(one)) === statementKey(statementOf(other));
          expect(sameKey).toBe(normalised(one) === normalised(other));
        }),
        { seed: 5602, numRuns: 2000 },
      );
    });
  });
});
