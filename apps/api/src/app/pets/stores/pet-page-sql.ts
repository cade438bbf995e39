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
}

/** A page's statement as it runs. */
export interface PageStatement {
  sql: string;
  values: unknown[];
}

/**
 * What reads of a page are shared by: the statement and every value it runs with, which is all that its answer depends
 * on, so a filter added to the query is in the key as soon as it is in the statement.
 */
export const statementKey = ({ sql, values }: PageStatement) => `${sql}\u0000${JSON.stringify(values)}`;

/** A page's statement and its values; the text depends only on which filters are given, so it is made once each. */
export function pageStatementOf(dialect: PageDialect): (query: PetPageQuery) => PageStatement {
  const made = new Map<string, string>();
  return ({ status, categoryId, nameKey, afterId, take }) => {
    const indexed = nameKey !== undefined && codePointLength(nameKey) >= TRIGRAM;
    const filters: Array<[condition: string, value: unknown]> = [];
    if (nameKey !== undefined) filters.push(indexed ? [dialect.indexedName.condition, dialect.indexedName.value(nameKey)] : [dialect.scannedName, nameKey]);
    const idColumn = indexed ? dialect.indexedName.idColumn : 'p.id';
    filters.push([`${idColumn} > ?`, afterId]);
    if (status !== undefined) filters.push(['p.status = ?', status]);
    if (categoryId !== undefined) filters.push(['p.category_id = ?', categoryId]);

    const shape = `${nameKey === undefined ? '-' : indexed ? 'i' : 's'}${status === undefined ? '-' : 's'}${categoryId === undefined ? '-' : 'c'}`;
    let sql = made.get(shape);
    if (!sql) {
      const from = indexed ? dialect.indexedName.from : 'pets p';
      const where = filters.map(([condition]) => condition).join(' AND ');
      let position = 0;
      sql = dialect.wrap(`SELECT ${dialect.selectList} FROM ${from} WHERE ${where} ORDER BY ${idColumn} LIMIT ?`);
      if (dialect.numbered) sql = sql.replace(/\?/g, () => `$${++position}`);
      made.set(shape, sql);
    }
    return { sql, values: [...filters.map(([, value]) => value), take] };
  };
}
