import { setTimeout as sleep } from 'node:timers/promises';
import type { QueryRunner } from 'typeorm';
import { progressOf } from './migration-progress';

// PostgreSQL's index work on `pets` for migrations that run outside a transaction (`transaction = false`): built,
// rebuilt and analysed without blocking the table's writers, each step safe while another instance runs it too.

/** How often to look again while another instance builds an index on `pets`. */
const BUILDING_POLL_MS = 500;

/** How often a build's progress is read (pg_stat_progress_create_index) for the log. */
const PROGRESS_POLL_MS = 5_000;

/**
 * Instances racing: two builds on one table started together deadlock and PostgreSQL cancels one; a second build of
 * one name finds it taken; two drops of one invalid index, or two ANALYZEs, collide on a catalog row ("tuple
 * concurrently updated", an internal error). The loser waits and looks again.
 */
const RACED_BUILD = new Set(['40P01', '23505', '42P07']);
const raced = (error: unknown) => {
  const { code, message } = error as { code?: string; message?: string };
  return RACED_BUILD.has(code ?? '') || (code === 'XX000' && /tuple concurrently updated/.test(message ?? ''));
};

/**
 * Builds the index unless a valid one is there. Instances take turns, as one build waits for every older transaction,
 * another build's included. A failed or cancelled build leaves an INVALID index behind, dropped here and built again.
 */
export async function buildConcurrently(queryRunner: QueryRunner, name: string, definition: string): Promise<void> {
  const progress = progressOf(queryRunner);
  for (;;) {
    const rows = await waitForOtherBuilds(queryRunner, `Index ${name}`);
    const [index] = (await queryRunner.query('SELECT indisvalid AS valid FROM pg_index WHERE indexrelid = to_regclass($1)', [name])) as Array<{ valid: boolean }>;
    if (index?.valid) return;
    progress.begin(`Index ${name}`, Number(rows));
    // On the migration's other connection: this one is busy building.
    const watch = setInterval(() => void reportBuild(queryRunner, (done) => progress.advance(Math.round(done * Number(rows)))), PROGRESS_POLL_MS);
    try {
      if (index) await queryRunner.query(`DROP INDEX CONCURRENTLY IF EXISTS ${name}`);
      await queryRunner.query(`CREATE INDEX CONCURRENTLY IF NOT EXISTS ${name} ${definition}`);
    } catch (error) {
      if (!raced(error)) throw error;
    } finally {
      clearInterval(watch);
      progress.end();
    }
  }
}

/**
 * Waits while another session builds an index of `pets`, holding the lock that ANALYZE, VACUUM and builds need; reported
 * as a step, so that this instance answers its probes meanwhile. Returns the table's estimated rows.
 */
export async function waitForOtherBuilds(queryRunner: QueryRunner, step: string): Promise<number> {
  const [{ rows }] = (await queryRunner.query(`SELECT greatest(reltuples, 0)::bigint AS rows FROM pg_class WHERE oid = 'pets'::regclass`)) as Array<{ rows: string }>;
  if (!(await buildingOnPets(queryRunner))) return Number(rows);
  const progress = progressOf(queryRunner);
  progress.begin(`${step}, waiting for another instance's index build on pets`, Number(rows));
  while (await buildingOnPets(queryRunner)) {
    await sleep(BUILDING_POLL_MS);
    // Throws once the process stops: it does not wait for the other instance's build to end.
    progress.advance(0);
  }
  progress.end();
  return Number(rows);
}

/** A build's progress as a fraction: the table's blocks read, then the entries sorted. */
async function reportBuild(queryRunner: QueryRunner, report: (fraction: number) => void): Promise<void> {
  try {
    const [build] = (await queryRunner.connection.query(
      `SELECT blocks_done AS "blocksDone", blocks_total AS "blocksTotal", tuples_done AS "tuplesDone", tuples_total AS "tuplesTotal"
       FROM pg_stat_progress_create_index WHERE relid = 'pets'::regclass`,
    )) as Array<Record<'blocksDone' | 'blocksTotal' | 'tuplesDone' | 'tuplesTotal', string>>;
    if (!build) return;
    const [done, total] = Number(build.tuplesTotal) > 0 ? [build.tuplesDone, build.tuplesTotal] : [build.blocksDone, build.blocksTotal];
    if (Number(total) > 0) report(Number(done) / Number(total));
  } catch {
    // Progress is for the log only; the build goes on whether or not it can be read.
  }
}

/** Rebuilds each index of `pets` beside the old one, which goes once the new one is ready. */
export async function reindexConcurrently(queryRunner: QueryRunner): Promise<void> {
  const indexes = (await queryRunner.query(`SELECT indexrelid::regclass::text AS name FROM pg_index WHERE indrelid = 'pets'::regclass AND indisvalid`)) as Array<{ name: string }>;
  const progress = progressOf(queryRunner);
  for (const { name } of indexes) {
    progress.begin(`Rebuild of index ${name}`);
    for (;;) {
      try {
        await queryRunner.query(`REINDEX INDEX CONCURRENTLY ${name}`);
        break;
      } catch (error) {
        if (!raced(error)) throw error;
      }
    }
    progress.end();
  }
}

/**
 * A REINDEX CONCURRENTLY cut short (the process stopped) leaves its new index behind, invalid, named `…_ccnew`, and
 * every write still updates it: dropped before anything else.
 */
export async function dropUnfinishedRebuilds(queryRunner: QueryRunner): Promise<void> {
  const unfinished = (await queryRunner.query(
    `SELECT indexrelid::regclass::text AS name FROM pg_index WHERE indrelid = 'pets'::regclass AND NOT indisvalid AND indexrelid::regclass::text LIKE '%\\_ccnew%'`,
  )) as Array<{ name: string }>;
  for (const { name } of unfinished) await queryRunner.query(`DROP INDEX CONCURRENTLY IF EXISTS ${name}`);
}

/** ANALYZE pets, run again when another instance's ANALYZE collided with it. */
export const analyze = (queryRunner: QueryRunner): Promise<void> => untilNotRaced(queryRunner, 'ANALYZE pets');

/** Runs a statement that changes a catalog row (CREATE OR REPLACE FUNCTION, ANALYZE) until it wins its race. */
export async function untilNotRaced(queryRunner: QueryRunner, sql: string): Promise<void> {
  for (;;) {
    try {
      await queryRunner.query(sql);
      return;
    } catch (error) {
      if (!raced(error)) throw error;
    }
  }
}

/** Whether some session is building an index of `pets` now (never this one: its own builds have ended). */
async function buildingOnPets(queryRunner: QueryRunner): Promise<boolean> {
  const [{ building }] = (await queryRunner.query(
    `SELECT EXISTS (SELECT 1 FROM pg_stat_progress_create_index WHERE relid = 'pets'::regclass) AS building`,
  )) as Array<{ building: boolean }>;
  return building;
}
