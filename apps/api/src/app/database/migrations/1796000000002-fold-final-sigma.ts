import type { MigrationInterface, QueryRunner } from 'typeorm';
import { perDatabase } from '../per-database';
import { buildConcurrently } from './concurrent-indexes';
import { refoldNameKeys } from './name-key-refold';

/**
 * 1.1.2: search keys without a final sigma (nameSearchKey), so that a search ending in sigma finds the names it is a
 * piece of ("ὈΔΥΣ" finds "Ὀδυσσεύς"). A partial index of the pets whose key still has one (those stored before, and
 * those an instance of 1.1.0 or 1.1.1 stores during a rolling upgrade), which refoldNameKeys reads; on SQLite, a
 * trigger that keeps the FTS5 table in step when a key is rewritten. The keys themselves are rewritten after it, a
 * batch per transaction (the dialects' migrate), and again every few seconds while instances of an older version may
 * write them (NameKeyBackfill).
 */
export class FoldFinalSigma1796000000002 implements MigrationInterface {
  name = 'FoldFinalSigma1796000000002';
  // PostgreSQL builds its index CONCURRENTLY, which no transaction may hold; SQLite's runs under the write lock anyway.
  transaction = false;

  async up(queryRunner: QueryRunner): Promise<void> {
    await perDatabase(queryRunner, { sqlite: sqliteUp, postgres: postgresUp })(queryRunner);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await perDatabase(queryRunner, {
      sqlite: async (runner: QueryRunner) => {
        await runner.query('DROP TRIGGER pets_name_rekey');
        await runner.query('DROP INDEX pets_name_key_unfolded');
      },
      postgres: (runner: QueryRunner) => runner.query('DROP INDEX CONCURRENTLY IF EXISTS pets_name_key_unfolded'),
    })(queryRunner);
  }
}

async function sqliteUp(queryRunner: QueryRunner): Promise<void> {
  await queryRunner.query(`CREATE INDEX pets_name_key_unfolded ON pets (id) WHERE instr(name_key, 'ς') > 0`);
  // A key rewritten (not written for the first time, which pets_name_fill does): its old entry out, its new one in.
  await queryRunner.query(`CREATE TRIGGER pets_name_rekey AFTER UPDATE OF name_key ON pets
    WHEN old.name_key IS NOT NULL AND new.name_key IS NOT NULL AND new.name_key <> old.name_key BEGIN
    INSERT INTO pets_name (pets_name, rowid, name_key) VALUES ('delete', old.id, old.name_key);
    INSERT INTO pets_name (rowid, name_key) VALUES (new.id, new.name_key); END`);
}

async function postgresUp(queryRunner: QueryRunner): Promise<void> {
  await buildConcurrently(queryRunner, 'pets_name_key_unfolded', `ON pets (id) WHERE strpos(name_key, 'ς') > 0`);
  await refoldNameKeys(queryRunner);
}
