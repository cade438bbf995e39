import { setTimeout as sleep } from 'node:timers/promises';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { perDatabase } from '../per-database';
import { fillMissingNameKeys } from './name-key-fill';

/** How often to look again while another instance builds an index on `pets`. */
const BUILDING_POLL_MS = 500;

/**
 * Two builds on one table that start at the same moment wait for each other, and PostgreSQL cancels one (deadlock
 * detected); two of one name, the second refused (the name taken); two drops of one invalid index, the second refused
 * as it updates the same catalog row ("tuple concurrently updated", an internal error). Either way the loser waits
 * and looks again.
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
 * step is safe to run again: after a failure, or while another instance runs it too.
 */
export class IndexNameSearch1796000000001 implements MigrationInterface {
  name = 'IndexNameSearch1796000000001';
  transaction = false;

  async up(queryRunner: QueryRunner): Promise<void> {
    if (perDatabase(queryRunner, { sqlite: true, postgres: false })) return;
    // First, so that the fill at every start finds the pets an instance of 1.0 inserted without a key at once.
    await buildConcurrently(queryRunner, 'pets_name_key_missing', 'ON pets (id) WHERE name_key IS NULL');
    await fillMissingNameKeys(queryRunner);
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
  for (;;) {
    while (await buildingOnPets(queryRunner)) await sleep(BUILDING_POLL_MS);
    const [index] = (await queryRunner.query('SELECT indisvalid AS valid FROM pg_index WHERE indexrelid = to_regclass($1)', [name])) as Array<{ valid: boolean }>;
    if (index?.valid) return;
    try {
      if (index) await queryRunner.query(`DROP INDEX CONCURRENTLY IF EXISTS ${name}`);
      await queryRunner.query(`CREATE INDEX CONCURRENTLY IF NOT EXISTS ${name} ${definition}`);
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
