import { DataSource, type QueryRunner } from 'typeorm';
import { perDatabase } from '../per-database';
import { progressOf } from './migration-progress';
import { inTurn } from './write-lock-pause';

/** Pets refolded per statement: a short transaction each. */
const BATCH = 2_000;

// Through the partial index `pets_name_key_unfolded`, whose predicate each repeats: no pass over the other pets.
const REFOLD_SQL = {
  sqlite: {
    toDo: `SELECT count(*) AS count FROM pets WHERE instr(name_key, 'ς') > 0`,
    refold: `UPDATE pets SET name_key = replace(name_key, 'ς', 'σ') WHERE id IN (SELECT id FROM pets WHERE instr(name_key, 'ς') > 0 LIMIT ?)`,
  },
  postgres: {
    toDo: `SELECT count(*) AS count FROM pets WHERE strpos(name_key, 'ς') > 0`,
    refold: `UPDATE pets SET name_key = replace(name_key, 'ς', 'σ') WHERE id IN (SELECT id FROM pets WHERE strpos(name_key, 'ς') > 0 LIMIT $1)`,
  },
};

/**
 * Since 1.1.2 a search key has no final sigma (nameSearchKey folds "ς" to "σ"). Keys written before, by 1.1.0 or 1.1.1
 * (and by their instances during a rolling upgrade), have one where a word of the name ends in sigma: rewritten here,
 * with SQL's replace(), which gives exactly the new key (the new key is the old one with each "ς" replaced). Returns
 * how many pets it refolded.
 */
export async function refoldNameKeys(on: DataSource | QueryRunner): Promise<number> {
  const sql = perDatabase(on, REFOLD_SQL);
  const [{ count }] = (await on.query(sql.toDo)) as Array<{ count: number | string }>;
  if (Number(count) === 0) return 0;
  const progress = progressOf(on);
  progress.begin('Search keys with a final sigma', Number(count));
  let refolded = 0;
  for (;;) {
    const changed = await inTurn(on, () => affectedBy(on, sql.refold, [BATCH]));
    refolded += changed;
    progress.advance(refolded, Math.max(refolded, Number(count)));
    if (changed < BATCH) break;
  }
  progress.end();
  return refolded;
}

/** Rows an UPDATE changed, as the driver counts them. */
async function affectedBy(on: DataSource | QueryRunner, sql: string, parameters: unknown[]): Promise<number> {
  const runner = on instanceof DataSource ? on.createQueryRunner() : on;
  try {
    return (await runner.query(sql, parameters, true)).affected ?? 0;
  } finally {
    if (runner !== on) await runner.release();
  }
}
