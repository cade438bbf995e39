import { setTimeout as sleep } from 'node:timers/promises';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { perDatabase } from '../per-database';
import { progressOf } from './migration-progress';
import { fillMissingNameKeys } from './name-key-fill';

/** How often to look again while another instance builds an index on `pets`. */
const BUILDING_POLL_MS = 500;

/** Rows keyed between two VACUUMs of the fill: a tenth of a million pets' table comes back to be reused. */
const VACUUM_EVERY_ROWS = 100_000;

/** How often a build's progress is read (pg_stat_progress_create_index) for the log. */
const PROGRESS_POLL_MS = 5_000;

/**
 * Two builds on one table that start at the same moment wait for each other, and PostgreSQL cancels one (deadlock
 * detected); two of one name, the second refused (the name taken); two drops of one invalid index, or two ANALYZEs of
 * one table, the second refused as it updates the same catalog row ("tuple concurrently updated", an internal error).
 * Either way the loser waits and looks again.
 */
const RACED_BUILD = new Set(['40P01', '23505', '42P07']);
const raced = (error: unknown) => {
  const { code, message } = error as { code?: string; message?: string };
  return RACED_BUILD.has(code ?? '') || (code === 'XX000' && /tuple concurrently updated/.test(message ?? ''));
};

/**
 * PostgreSQL's half of listPets' filters (SQLite's is all in AddNameSearch1796000000000): the pets' search keys, a
 * batch per short transaction, and three indexes each built CONCURRENTLY, which lets the table's readers and writers go
 * on while it is built. That is why this migration runs outside a transaction (PostgresDialect.migrate), and why each
 * step is safe to run again: after a failure, or while another instance runs it too, and resumes where it stopped (a
 * valid index is kept, an invalid one built again, a pet keyed already left alone). None of it may take the request
 * timeout: PostgresDialect.migrate runs migrations on connections without a statement timeout.
 */
export class IndexNameSearch1796000000001 implements MigrationInterface {
  name = 'IndexNameSearch1796000000001';
  transaction = false;

  async up(queryRunner: QueryRunner): Promise<void> {
    if (perDatabase(queryRunner, { sqlite: true, postgres: false })) return;
    await dropUnfinishedRebuilds(queryRunner);
    // The column is new: without its statistics, each batch of the fill joins by reading every unkeyed pet into a
    // hash (2.3 s a batch at 1M pets, where 34 ms with them), and builds have no row count to report progress in.
    await analyze(queryRunner);
    // First, so that the fill at every start finds the pets an instance of 1.0 inserted without a key at once.
    await buildConcurrently(queryRunner, 'pets_name_key_missing', 'ON pets (id) WHERE name_key IS NULL');
    // A key changes a row, and PostgreSQL writes the changed row anew: without a VACUUM now and then, keying every pet
    // would leave the table twice its size. With it, each batch takes the room the ones before it freed.
    const keyed = await fillMissingNameKeys(queryRunner, { between: { everyRows: VACUUM_EVERY_ROWS, run: () => queryRunner.query('VACUUM pets') } });
    // Each index of `pets` got a second entry for every pet keyed, which no VACUUM gives back: rebuilt, they are their
    // size again (the one of pets without a key, a page).
    if (keyed >= VACUUM_EVERY_ROWS) await reindexConcurrently(queryRunner);
    // The keys' statistics, now that there are keys: what the planner weighs the trigram index by.
    await analyze(queryRunner);
    await buildConcurrently(queryRunner, 'pets_name_key_trgm', 'ON pets USING gin (name_key gin_trgm_ops)');
    await buildConcurrently(queryRunner, 'pets_category_id_id', 'ON pets (category_id, id)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (perDatabase(queryRunner, { sqlite: true, postgres: false })) return;
    for (const index of ['pets_category_id_id', 'pets_name_key_trgm', 'pets_name_key_missing']) {
      await queryRunner.query(`DROP INDEX CONCURRENTLY IF EXISTS ${index}`);
    }
  }
}

/**
 * Builds the index unless a valid one is there. Instances starting together take turns: each waits while any index
 * of `pets` is being built (one build waits for every transaction older than itself, another build's included). A
 * build that failed or was cancelled leaves an INVALID index behind, dropped here and built again.
 */
async function buildConcurrently(queryRunner: QueryRunner, name: string, definition: string): Promise<void> {
  const progress = progressOf(queryRunner);
  for (;;) {
    while (await buildingOnPets(queryRunner)) await sleep(BUILDING_POLL_MS);
    const [index] = (await queryRunner.query('SELECT indisvalid AS valid FROM pg_index WHERE indexrelid = to_regclass($1)', [name])) as Array<{ valid: boolean }>;
    if (index?.valid) return;
    const [{ rows }] = (await queryRunner.query(`SELECT greatest(reltuples, 0)::bigint AS rows FROM pg_class WHERE oid = 'pets'::regclass`)) as Array<{ rows: string }>;
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

/** How far the build of an index on `pets` is, as a fraction: the blocks of the table read, then the entries sorted. */
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

/** The indexes of `pets` there are now, each rebuilt beside the old one, which goes once the new one is ready. */
async function reindexConcurrently(queryRunner: QueryRunner): Promise<void> {
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
async function dropUnfinishedRebuilds(queryRunner: QueryRunner): Promise<void> {
  const unfinished = (await queryRunner.query(
    `SELECT indexrelid::regclass::text AS name FROM pg_index WHERE indrelid = 'pets'::regclass AND NOT indisvalid AND indexrelid::regclass::text LIKE '%\\_ccnew%'`,
  )) as Array<{ name: string }>;
  for (const { name } of unfinished) await queryRunner.query(`DROP INDEX CONCURRENTLY IF EXISTS ${name}`);
}

/** ANALYZE pets; two at once may collide on the statistics' catalog rows ("tuple concurrently updated"): again. */
async function analyze(queryRunner: QueryRunner): Promise<void> {
  for (;;) {
    try {
      await queryRunner.query('ANALYZE pets');
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
