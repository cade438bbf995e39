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
   * For a planner that cannot weigh a name search against a category (SQLite, where the FTS5 table is always the outer
   * loop): a name search in a category with at most `pets` pets after the cursor reads that category through `from`
   * (its index), checking each name, and one in a larger category the name index. Both give the same page; the
   * statement holds both and counts, at most `pets` index entries, which one runs.
   */
  smallCategory?: { pets: number; from: string };
}

type Condition = [condition: string, ...values: unknown[]];

/** One SELECT of a page's rows: where it reads, what it keeps, in which order. */
interface Plan {
  from: string;
  idColumn: string;
  conditions: Condition[];
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
    const others: Condition[] = [];
    if (status !== undefined) others.push(['p.status = ?', status]);
    if (categoryId !== undefined) others.push(['p.category_id = ?', categoryId]);
    const byName: Condition[] = nameKey === undefined ? [] : [indexed ? [dialect.indexedName.condition, dialect.indexedName.value(nameKey)] : [dialect.scannedName, nameKey]];
    const idColumn = indexed ? dialect.indexedName.idColumn : 'p.id';
    const plan: Plan = { from: indexed ? dialect.indexedName.from : 'pets p', idColumn, conditions: [...byName, [`${idColumn} > ?`, afterId], ...others] };
    let plans = [plan];
    const small = dialect.smallCategory;
    if (small && indexed && nameKey !== undefined && categoryId !== undefined) {
      const count = `(SELECT count(*) FROM (SELECT 1 FROM pets WHERE category_id = ? AND id > ? LIMIT ${small.pets}))`;
      plans = [
        { from: small.from, idColumn: 'p.id', conditions: [[`${count} < ${small.pets}`, categoryId, afterId], [dialect.scannedName, nameKey], ['p.id > ?', afterId], ...others] },
        { ...plan, conditions: [[`${count} >= ${small.pets}`, categoryId, afterId], ...plan.conditions] },
      ];
    }
    const values = plans.flatMap(({ conditions }) => [...conditions.flatMap(([, ...given]) => given), take]);

    const shape = `${nameKey === undefined ? '-' : indexed ? 'i' : 's'}${status === undefined ? '-' : 's'}${categoryId === undefined ? '-' : 'c'}`;
    let sql = made.get(shape);
    if (!sql) {
      const selects = plans.map(({ from, idColumn: order, conditions }) =>
        `SELECT ${dialect.selectList} FROM ${from} WHERE ${conditions.map(([condition]) => condition).join(' AND ')} ORDER BY ${order} LIMIT ?`,
      );
      let position = 0;
      sql = dialect.wrap(selects.length === 1 ? selects[0] : selects.map((one) => `SELECT * FROM (${one})`).join(' UNION ALL '));
      if (dialect.numbered) sql = sql.replace(/\?/g, () => `$${++position}`);
      made.set(shape, sql);
    }
    return { sql, values };
  };
}
