import type { MigrationInterface, QueryRunner } from 'typeorm';
import { perDatabase } from '../per-database';
import { analyze, buildConcurrently, dropUnfinishedRebuilds, reindexConcurrently, waitForOtherBuilds } from './concurrent-indexes';
import { fillMissingNameKeys } from './name-key-fill';

/** Rows keyed between two VACUUMs of the fill: a tenth of a million pets' table comes back to be reused. */
const VACUUM_EVERY_ROWS = 100_000;

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
    // Another instance may be building here already: its build would hold up the ANALYZE below, unannounced.
    await waitForOtherBuilds(queryRunner, 'Search keys');
    await dropUnfinishedRebuilds(queryRunner);
    // The column is new: without its statistics, each batch of the fill joins by reading every unkeyed pet into a
    // hash, and builds have no row count to report progress in.
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
