import fc from 'fast-check';
import { type PetFilters, PetStatus } from '@petstore/contract';
import type { PetPageQuery } from '../pet-store-requests';
import { type NameIndex, type PageDialect, type PageStatement, pageStatementOf, statementFor, statementKey } from './pet-page-sql';
import { petSelectList } from './pet-row';
import { POSTGRES_PAGES } from './postgres-pet-sql';
import { SQLITE_PAGES } from './sqlite-pet-sql';

// Each statement from a maker of its own: a maker writes the text of each shape of page once, and a test that asked one
// the stores share would judge a text made by whichever test asked for that shape first.
const sqlitePageStatement = (query: PetPageQuery) => pageStatementOf(SQLITE_PAGES)(query);
const postgresPageStatement = (query: PetPageQuery) => pageStatementOf(POSTGRES_PAGES)(query);

const DIALECTS: Array<[string, (query: PetPageQuery) => PageStatement]> = [
  ['SQLite', sqlitePageStatement],
  ['PostgreSQL', postgresPageStatement],
];

/**
 * Values of every filter and of the page's place and size, each different from the others: a filter's absence, values
 * the index serves and values it does not. The filters' are typed over every filter of PET_FILTERS, so that a filter
 * added fails the type-check here until it has values, and then this test until its statement, and so the key of
 * shared reads, tells them apart.
 */
const FILTER_VALUES: { [F in keyof Required<PetFilters>]: Array<PetFilters[F]> } = {
  status: [undefined, PetStatus.Available, PetStatus.Pending, PetStatus.Sold],
  name: [undefined, 'r', 're', 'rex', 'rexa', 'x"y', '%', '_', '\\', '"'],
  categoryId: [undefined, 1, 2, 9007199254740991],
};
const PLACE_VALUES = { afterId: [0, 1, 2, 9007199254740991], take: [1, 2, 21, 101] };
type Part = keyof PetFilters | keyof typeof PLACE_VALUES;
const VALUES: Record<Part, unknown[]> = { ...FILTER_VALUES, ...PLACE_VALUES };

/** A page's query from the value of each part, the filters' inside `filters`. */
function queryOf(parts: Partial<Record<Part, unknown>>): PetPageQuery {
  const { afterId, take, ...filters } = parts as Record<string, unknown>;
  return { filters: filters as PetFilters, afterId: afterId as number, take: take as number };
}
const parts = fc.record(Object.fromEntries(Object.entries(VALUES).map(([part, values]) => [part, fc.constantFrom(...values)])) as Record<Part, fc.Arbitrary<unknown>>);

/** The question asked, absent filters left out, as two equal questions are equal. */
const normalised = (parts: Partial<Record<Part, unknown>>) => JSON.stringify(Object.entries(parts).filter(([, value]) => value !== undefined).sort());

describe('the statement of a page, which keys its shared reads', () => {
  describe.each(DIALECTS)('on %s', (_, statementOf) => {
    it.each(Object.keys(VALUES) as Part[])('tells every value of %s apart, whatever the other parts are', (part) => {
      fc.assert(
        fc.property(parts, (base) => {
          const keys = VALUES[part].map((value) => statementKey(statementOf(queryOf({ ...base, [part]: value }))));
          expect(new Set(keys).size).toBe(keys.length);
        }),
        { seed: 5601, numRuns: 200 },
      );
    });

    it('gives two queries the same key exactly when they ask the same', () => {
      fc.assert(
        fc.property(parts, parts, (one, other) => {
          const sameKey = statementKey(statementOf(queryOf(one))) === statementKey(statementOf(queryOf(other)));
          expect(sameKey).toBe(normalised(one) === normalised(other));
        }),
        { seed: 5602, numRuns: 2000 },
      );
    });

    it('gives names that search alike one key: the search compares nameSearchKeys', () => {
      const keyOf = (name: string) => statementKey(statementOf({ filters: { name }, afterId: 0, take: 21 }));
      expect(keyOf('ＲＥＸ')).toBe(keyOf('rex'));
      expect(keyOf('STRASSE')).toBe(keyOf('straße'));
    });
  });
});

describe('a name search in a small category (SQLite)', () => {
  const page: PetPageQuery = { filters: { name: 'luna', categoryId: 20, status: PetStatus.Pending }, afterId: 7, take: 21 };

  it('counts the category first, up to one more than 5,000, on its index', () => {
    expect(sqlitePageStatement(page).fewInCategory?.probe).toEqual({
      sql: 'SELECT count(*) AS count FROM (SELECT 1 FROM pets WHERE category_id = ? LIMIT ?)',
      values: [20, 5_001],
    });
  });

  it('reads a small category through its index, each name checked, for the same page', () => {
    const { statement } = sqlitePageStatement(page).fewInCategory ?? {};
    expect(statement?.sql).toContain('FROM pets p INDEXED BY pets_category_id_id WHERE instr(p.name_key, ?) > 0 AND p.id > ? AND p.status = ? AND p.category_id = ? ORDER BY p.id LIMIT ?');
    expect(statement?.values).toEqual(['luna', 7, 'pending', 20, 21]);
  });

  it('takes that way up to 5,000 pets in the category, and the name index beyond', () => {
    const statement = sqlitePageStatement(page);
    expect(statementFor(statement, 0)).toBe(statement.fewInCategory?.statement);
    expect(statementFor(statement, 5_000)).toBe(statement.fewInCategory?.statement);
    expect(statementFor(statement, 5_001)).toBe(statement);
  });

  it('has it for a name shorter than a trigram too, read otherwise from the short-name index', () => {
    const statement = sqlitePageStatement({ ...page, filters: { ...page.filters, name: 'lu' } });
    expect(statement.sql).toContain('FROM pets_name_short f CROSS JOIN pets p');
    expect(statement.fewInCategory?.statement.values).toEqual(['lu', 7, 'pending', 20, 21]);
  });

  it.each([
    ['without a category', { ...page, filters: { ...page.filters, categoryId: undefined } }],
    ['without a name', { ...page, filters: { ...page.filters, name: undefined } }],
  ])('has no other way %s', (_, query) => {
    const statement = sqlitePageStatement(query);
    expect(statement.fewInCategory).toBeUndefined();
    expect(statementFor(statement, 0)).toBe(statement);
  });

  it('is SQLite\'s alone: PostgreSQL\'s planner weighs the category against the name itself', () => {
    expect(postgresPageStatement(page).fewInCategory).toBeUndefined();
  });
});

describe('the name index a search reads', () => {
  const SELECT_LIST = petSelectList('p');
  const page = (name: string, others: PetFilters = {}): PetPageQuery => ({ filters: { name, ...others }, afterId: 0, take: 21 });

  it.each([
    ['é', 'C3A9'],
    ['lu', '6C75'],
    ['"', '22'],
    [' x', '2078'],
  ])('on SQLite, looks %j up in the short-name table as the hex of its UTF-8 bytes (%s)', (key, token) => {
    const { sql, values } = sqlitePageStatement(page(key));
    expect(sql).toContain('FROM pets_name_short f CROSS JOIN pets p ON p.id = f.rowid WHERE pets_name_short MATCH ? AND f.rowid > ? ORDER BY f.rowid LIMIT ?');
    expect(values).toEqual([token, 0, 21]);
  });

  it('on SQLite, looks a search of three characters or more up in the trigram table, as one phrase', () => {
    const { sql, values } = sqlitePageStatement(page('lu"n'));
    expect(sql).toContain('FROM pets_name f CROSS JOIN pets p ON p.id = f.rowid WHERE pets_name MATCH ?');
    expect(values).toEqual(['"lu""n"', 0, 21]);
  });

  it('on PostgreSQL, walks the first 5,000 pets after the cursor, then asks pet_name_pieces for the rest of the page', () => {
    const { sql, values } = postgresPageStatement(page('_é', { status: PetStatus.Sold, categoryId: 4 }));
    expect(sql).toBe(
      `WITH near AS (SELECT ${SELECT_LIST} FROM (SELECT * FROM pets WHERE id > $1 ORDER BY id LIMIT 5000) p WHERE strpos(p.name_key, $2) > 0 AND p.status = $3 AND p.category_id = $4 ORDER BY p.id LIMIT $5), ` +
        `far AS MATERIALIZED (SELECT ${SELECT_LIST} FROM pets p WHERE pet_name_pieces(p.name_key) @> ARRAY[$6::text] ` +
        'AND p.id > coalesce((SELECT id FROM pets WHERE id > $7 ORDER BY id OFFSET 4999 LIMIT 1), 9223372036854775807) AND p.status = $8 AND p.category_id = $9) ' +
        'SELECT * FROM near UNION ALL (SELECT * FROM far ORDER BY id LIMIT $10 - (SELECT count(*) FROM near)) ORDER BY id',
    );
    expect(values).toEqual([0, '_é', 'sold', 4, 21, '_é', 0, 'sold', 4, 21]);
  });

  it('on PostgreSQL, asks the trigram index with the LIKE alone for three characters or more', () => {
    const { sql, values } = postgresPageStatement(page('lun'));
    expect(sql).toContain('WHERE p.name_key LIKE $1 AND p.id > $2 ORDER BY p.id LIMIT $3');
    expect(values).toEqual(['%lun%', 0, 21]);
  });
});

describe('the text of each shape of page, made once by a maker', () => {
  // Every way in reads one FROM clause (as PostgreSQL's trigram search and a list without a name do), so that only the
  // rest of the shape (how the name is matched, the other filters) tells the texts apart.
  const index = (condition: string, walkFirst?: number): NameIndex => ({ from: 'pets p', condition, idColumn: 'p.id', values: (key) => [key], walkFirst });
  const dialect: PageDialect = {
    selectList: 'p.*',
    wrap: (select) => select,
    trigramName: index('trigram(p.name_key, ?)'),
    shortName: index('short(p.name_key, ?)'),
    scannedName: 'scanned(p.name_key, ?)',
    numbered: false,
    smallCategory: { from: 'pets p', most: 10 },
  };
  const queries: PetPageQuery[] = [undefined, 'ab', 'abc'].flatMap((name) =>
    [undefined, PetStatus.Sold].flatMap((status) => [undefined, 3].map((categoryId) => ({ filters: { name, status, categoryId }, afterId: 0, take: 21 }))),
  );

  it.each([
    ['as they come', dialect],
    ['with the short search walking first', { ...dialect, shortName: index('short(p.name_key, ?)', 100) }],
  ])('answers each query with its own text, whatever was asked before it (%s)', (_, pages) => {
    for (const order of [queries, [...queries].reverse()]) {
      const shared = pageStatementOf(pages);
      for (const query of order) {
        const alone = pageStatementOf(pages)(query);
        const page = shared(query);
        expect(page.sql).toBe(alone.sql);
        expect(page.fewInCategory?.statement.sql).toBe(alone.fewInCategory?.statement.sql);
      }
    }
    // Twelve ways of asking, twelve texts: none of the filters is left out of the statement.
    const texts = new Set(queries.map((query) => pageStatementOf(pages)(query).sql));
    expect(texts.size).toBe(queries.length);
  });
});
