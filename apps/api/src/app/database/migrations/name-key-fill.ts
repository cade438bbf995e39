import { nameSearchKey } from '@petstore/contract';
import type { DataSource, QueryRunner } from 'typeorm';
import { perDatabase } from '../per-database';
import { progressOf } from './migration-progress';
import { inTurn } from './write-lock-pause';

const DEADLOCK_DETECTED = '40P01';

/** Through the partial index `pets_name_key_missing` on both databases: no pass over the keyed pets. */
const TO_DO = 'SELECT count(*) AS count FROM pets WHERE name_key IS NULL';

/** Pets keyed per statement: a short transaction each, so that a live table's writers hardly wait. */
const BATCH = 2_000;

interface FillSql {
  missing: string;
  fill: string;
  values: (rows: Missing[]) => unknown[];
}

const FILL_SQL: Record<'sqlite' | 'postgres', FillSql> = {
  sqlite: {
    missing: 'SELECT id, name FROM pets WHERE name_key IS NULL AND id > ? ORDER BY id LIMIT ?',
    fill: `UPDATE pets SET name_key = json_extract(batch.value, '$[1]') FROM json_each(?) AS batch
           WHERE pets.id = json_extract(batch.value, '$[0]') AND pets.name_key IS NULL`,
    values: (rows: Missing[]) => [JSON.stringify(rows.map(({ id, name }) => [Number(id), nameSearchKey(name)]))],
  },
  postgres: {
    missing: 'SELECT id, name FROM pets WHERE name_key IS NULL AND id > $1 ORDER BY id LIMIT $2',
    fill: `UPDATE pets SET name_key = batch.key FROM unnest($1::bigint[], $2::varchar[]) AS batch (id, key)
           WHERE pets.id = batch.id AND pets.name_key IS NULL`,
    values: (rows: Missing[]) => [rows.map(({ id }) => id), rows.map(({ name }) => nameSearchKey(name))],
  },
};

/** Work done between batches, every so many rows keyed (the migration's VACUUM on PostgreSQL). */
interface Between {
  everyRows: number;
  run: () => Promise<unknown>;
}

interface Missing {
  id: number | string;
  name: string;
}

/** One batch; instances filling at once may lock its rows in another order, and the one PostgreSQL cancels goes again. */
async function fillBatch(on: DataSource | QueryRunner, sql: FillSql, rows: Missing[]): Promise<void> {
  for (;;) {
    try {
      await on.query(sql.fill, sql.values(rows));
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== DEADLOCK_DETECTED) throw error;
    }
  }
}

/**
 * Writes the search key (nameSearchKey) of every pet that has none: all of them once the column is added, and
 * afterwards any pet an instance of version 1.0 inserted during a rolling upgrade, found through the partial index
 * `pets_name_key_missing`. Keys are JavaScript's to compute (Unicode normalisation and case folding alike on both
 * databases), so the service writes them: on insert, here, and every few seconds while it runs (NameKeyBackfill).
 * Each batch is its own short transaction, so an interrupted fill resumes where it stopped. A fill of many rows reports
 * its progress (migration-progress.ts). Returns how many pets it keyed.
 */
export async function fillMissingNameKeys(on: DataSource | QueryRunner, { between }: { between?: Between } = {}): Promise<number> {
  const sql = perDatabase(on, FILL_SQL);
  const [{ count }] = (await on.query(TO_DO)) as Array<{ count: number | string }>;
  const toDo = Number(count);
  if (toDo === 0) return 0;
  const progress = progressOf(on);
  progress.begin('Search keys of the pets stored without one', toDo);
  let filled = 0;
  for (let afterId: number | string = 0; ; ) {
    const rows = await inTurn(on, async () => {
      const missing = (await on.query(sql.missing, [afterId, BATCH])) as Missing[];
      if (missing.length > 0) await fillBatch(on, sql, missing);
      return missing;
    });
    if (rows.length === 0) break;
    filled += rows.length;
    // Pets an older instance adds meanwhile are keyed too: the count grows with them.
    progress.advance(filled, Math.max(toDo, filled));
    afterId = rows[rows.length - 1].id;
    if (between && filled % between.everyRows < rows.length) await between.run();
  }
  progress.end();
  return filled;
}
