import { codePointLength } from '@petstore/contract';
import type { PetPageQuery } from '../pet.store';

/**
 * Both name indexes (SQLite's FTS5 trigram table, PostgreSQL's pg_trgm GIN) are made of three-character pieces: a
 * shorter search has none to look up, so it reads names in id order until the page is full (docs/performance.md).
 */
export const TRIGRAM = 3;

/** How a dialect writes a page's statement; every value is a `?`, numbered afterwards where the dialect wants `$n`. */
export interface PageDialect {
  /** The inner SELECT's list, from `pets p`. */
  selectList: string;
  /** The whole statement around the inner SELECT of the page's rows. */
  wrap: (select: string) => string;
  /** The indexed name search: the FROM clause it needs, its condition, the value that goes in, the id to order by. */
  indexedName: { from: string; condition: string; idColumn: string; value: (key: string) => unknown };
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

/** A page's statement and its values; the text depends only on which filters are given, so it is made once each. */
export function pageStatementOf(dialect: PageDialect): (query: PetPageQuery) => PageStatement {
  const made = new Map<string, string>();
  const numbered = (sql: string) => {
    let position = 0;
    return dialect.numbered ? sql.replace(/\?/g, () => `$${++position}`) : sql;
  };
  /** The statement of a page: read through `from` (`indexed`: the name's index, else the pets table as `from` says). */
  const statementOf = ({ status, categoryId, nameKey, afterId, take }: PetPageQuery, indexed: boolean, from: string): PageStatement => {
    const filters: Array<[condition: string, value: unknown]> = [];
    if (nameKey !== undefined) filters.push(indexed ? [dialect.indexedName.condition, dialect.indexedName.value(nameKey)] : [dialect.scannedName, nameKey]);
    const idColumn = indexed ? dialect.indexedName.idColumn : 'p.id';
    filters.push([`${idColumn} > ?`, afterId]);
    if (status !== undefined) filters.push(['p.status = ?', status]);
    if (categoryId !== undefined) filters.push(['p.category_id = ?', categoryId]);

    const shape = `${from}|${nameKey === undefined ? '-' : indexed ? 'i' : 's'}${status === undefined ? '-' : 's'}${categoryId === undefined ? '-' : 'c'}`;
    let sql = made.get(shape);
    if (!sql) {
      const where = filters.map(([condition]) => condition).join(' AND ');
      sql = numbered(dialect.wrap(`SELECT ${dialect.selectList} FROM ${from} WHERE ${where} ORDER BY ${idColumn} LIMIT ?`));
      made.set(shape, sql);
    }
    return { sql, values: [...filters.map(([, value]) => value), take] };
  };
  const probe = numbered('SELECT count(*) AS count FROM (SELECT 1 FROM pets WHERE category_id = ? LIMIT ?)');
  return (query) => {
    const indexed = query.nameKey !== undefined && codePointLength(query.nameKey) >= TRIGRAM;
    const page = statementOf(query, indexed, indexed ? dialect.indexedName.from : 'pets p');
    const small = dialect.smallCategory;
    if (!indexed || query.categoryId === undefined || !small) return page;
    return {
      ...page,
      fewInCategory: { probe: { sql: probe, values: [query.categoryId, small.most + 1] }, most: small.most, statement: statementOf(query, false, small.from) },
    };
  };
}
