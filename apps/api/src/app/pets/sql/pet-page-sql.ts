import { codePointLength, filterEntries, nameSearchKey, type PetFilters } from '@petstore/contract';
import type { PetPageQuery } from '../pet-store-requests';
import { columnName } from './pet-row';

/**
 * The trigram indexes (SQLite's FTS5 table, PostgreSQL's pg_trgm GIN) are made of three-character pieces: a shorter
 * search has none to look up, and goes to the index of one- and two-character pieces instead
 * (docs/performance.md, "Searches shorter than a trigram").
 */
export const TRIGRAM = 3;

/** A name index as a page reads it: the FROM clause it needs, its condition, the values that go in, the id to order by. */
export interface NameIndex {
  from: string;
  condition: string;
  idColumn: string;
  values: (key: string) => unknown[];
  /**
   * Where the database's planner cannot tell how many names match, and so whether to walk id order or read the index
   * (PostgreSQL's estimate of a piece it has not sampled): the page reads this many pets in id order first, each name
   * checked as `scannedName` does, and takes the rest of the page, if any, from the index, after them (walkFirst).
   */
  walkFirst?: number;
}

/** Greater than any id (a bigint), for a walk that reaches the end of the table. */
const PAST_EVERY_ID = '9223372036854775807';

/** How a dialect writes a page's statement; every value is a `?`, numbered afterwards where the dialect wants `$n`. */
export interface PageDialect {
  /** The inner SELECT's list, from `pets p`. */
  selectList: string;
  /** The whole statement around the inner SELECT of the page's rows. */
  wrap: (select: string) => string;
  /** The name search of three characters or more. */
  trigramName: NameIndex;
  /** The name search of one or two characters. */
  shortName: NameIndex;
  /** Whether the name's key contains `?`, read row by row. */
  scannedName: string;
  /** `?` → the dialect's placeholder; SQLite keeps `?`, PostgreSQL numbers them. */
  numbered: boolean;
  /**
   * Where the database's planner cannot weigh a name search against a category (SQLite: the FTS5 table is always the
   * outer loop), the pets table read through this FROM clause (the category's index), each name checked as
   * `scannedName` does: the way taken when the category has at most `most` pets (fewInCategory).
   */
  smallCategory?: { from: string; most: number };
}

/** A page's statement as it runs. */
export interface PageStatement {
  sql: string;
  values: unknown[];
  /**
   * A name search in a category, where the dialect has smallCategory: the count of the category's pets up to one more
   * than its `most` (`probe`), and the same page read from the category (`statement`), taken when the count is at most
   * `most`. Both answer what `sql` does; the shared read stays keyed by `sql` and `values`.
   */
  fewInCategory?: { probe: PageStatement; most: number; statement: PageStatement };
}

/** The statement to run for `page`, given how many pets its category has (up to one more than the limit). */
export const statementFor = (page: PageStatement, inCategory: number): PageStatement =>
  page.fewInCategory && inCategory <= page.fewInCategory.most ? page.fewInCategory.statement : page;

/**
 * What reads of a page are shared by: the statement and every value it runs with, which is all that its answer depends
 * on, so a filter added to the query is in the key as soon as it is in the statement.
 */
export const statementKey = ({ sql, values }: PageStatement) => `${sql}\u0000${JSON.stringify(values)}`;

/** A page's filters as its statement applies them: the name's key, and a condition on a column for each other one. */
interface PageFilters {
  /** The `contains` filter's value as its nameSearchKey: pets whose name's key contains it. */
  nameKey?: string;
  equal: Array<[condition: string, value: unknown]>;
}

/** Each equality filter's condition, written once: every page asks for them. */
const EQUAL_CONDITIONS = new Map(filterEntries().map(([filter, spec]) => [filter, `p.${columnName(spec.field)} = ?`]));

function pageFiltersOf(filters: PetFilters): PageFilters {
  const page: PageFilters = { equal: [] };
  for (const [filter, spec] of filterEntries()) {
    const value = filters[filter];
    if (value === undefined) continue;
    if (spec.match === 'contains') page.nameKey = nameSearchKey(value as string);
    else page.equal.push([EQUAL_CONDITIONS.get(filter) as string, value]);
  }
  return page;
}

/** A page's statement and its values; the text depends only on which filters are given, so it is made once each. */
export function pageStatementOf(dialect: PageDialect): (query: PetPageQuery) => PageStatement {
  const made = new Map<string, string>();
  const numbered = (sql: string) => {
    let position = 0;
    return dialect.numbered ? sql.replace(/\?/g, () => `$${++position}`) : sql;
  };
  /** The text of a page's statement of this `shape`, made once. */
  const textOf = (shape: string, make: () => string) => {
    let sql = made.get(shape);
    // Stryker disable next-line ConditionalExpression: made again, the text is the same
    if (!sql) made.set(shape, (sql = numbered(dialect.wrap(make()))));
    return sql;
  };
  /** The statement of a page: read through `index` (the name's), else from the pets table as `from` says. */
  const statementOf = ({ afterId, take }: PetPageQuery, { nameKey, equal: others }: PageFilters, index: NameIndex | undefined, from: string): PageStatement => {
    // What the text depends on: where the page reads, how it matches a name, and which other filters it has.
    // Stryker disable next-line StringLiteral: any text that is not a condition marks a page without a name
    const nameCondition = nameKey === undefined ? '-' : (index?.condition ?? dialect.scannedName);
    const shape = `${from}|${nameCondition}|${others.map(([condition]) => condition)}`;
    // An index is read only for a name.
    if (index?.walkFirst !== undefined) return walkFirst(nameKey as string, afterId, take, index, index.walkFirst, others, shape);

    const filters: Array<[condition: string, values: unknown[]]> = [];
    if (nameKey !== undefined) filters.push(index ? [index.condition, index.values(nameKey)] : [dialect.scannedName, [nameKey]]);
    const idColumn = index ? index.idColumn : 'p.id';
    filters.push([`${idColumn} > ?`, [afterId]], ...others.map(([condition, value]): [string, unknown[]] => [condition, [value]]));
    const where = filters.map(([condition]) => condition).join(' AND ');
    const sql = textOf(shape, () => `SELECT ${dialect.selectList} FROM ${from} WHERE ${where} ORDER BY ${idColumn} LIMIT ?`);
    return { sql, values: [...filters.flatMap(([, values]) => values), take] };
  };
  /**
   * A page in two parts: the matches among the first `walk` pets after the cursor, read in id order (`near`), and,
   * when they do not fill it, the matches after those pets, all of them from the index, sorted (`far`, which runs only
   * then). Either part is bounded: `walk` rows, or the matches of a name that is rare there. Without a LIMIT, `far`
   * gives the planner nothing to gain by walking id order.
   */
  const walkFirst = (nameKey: string, afterId: number, take: number, index: NameIndex, walk: number, others: Array<[string, unknown]>, shape: string): PageStatement => {
    const and = others.map(([condition]) => ` AND ${condition}`).join('');
    // `near` reads the walk in id order and stops once the page is full; the walk's last id is looked up only for `far`.
    const sql = textOf(
      shape,
      () =>
        `WITH near AS (SELECT ${dialect.selectList} FROM (SELECT * FROM pets WHERE id > ? ORDER BY id LIMIT ${walk}) p WHERE ${dialect.scannedName}${and} ORDER BY p.id LIMIT ?), ` +
        `far AS MATERIALIZED (SELECT ${dialect.selectList} FROM pets p WHERE ${index.condition} ` +
        `AND p.id > coalesce((SELECT id FROM pets WHERE id > ? ORDER BY id OFFSET ${walk - 1} LIMIT 1), ${PAST_EVERY_ID})${and}) ` +
        `SELECT * FROM near UNION ALL (SELECT * FROM far ORDER BY id LIMIT ? - (SELECT count(*) FROM near)) ORDER BY id`,
    );
    const values = others.map(([, value]) => value);
    return { sql, values: [afterId, nameKey, ...values, take, ...index.values(nameKey), afterId, ...values, take] };
  };
  const probe = numbered('SELECT count(*) AS count FROM (SELECT 1 FROM pets WHERE category_id = ? LIMIT ?)');
  return (query) => {
    const filters = pageFiltersOf(query.filters);
    const { nameKey } = filters;
    const index = nameKey === undefined ? undefined : codePointLength(nameKey) >= TRIGRAM ? dialect.trigramName : dialect.shortName;
    const page = statementOf(query, filters, index, index ? index.from : 'pets p');
    const small = dialect.smallCategory;
    const { categoryId } = query.filters;
    if (!index || categoryId === undefined || !small) return page;
    return {
      ...page,
      fewInCategory: { probe: { sql: probe, values: [categoryId, small.most + 1] }, most: small.most, statement: statementOf(query, filters, undefined, small.from) },
    };
  };
}
