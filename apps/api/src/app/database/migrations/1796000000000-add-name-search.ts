import type { MigrationInterface, QueryRunner } from 'typeorm';
import { perDatabase } from '../per-database';

/**
 * listPets' `name` and `categoryId` filters (1.1.0). Every pet gets a search key (`name_key`, nameSearchKey of its
 * name, written by the service on insert). On SQLite, the schema happens here, in the migration's transaction: the
 * FTS5 trigram table over the keys with the triggers that keep it in step with `pets` in each insert's own
 * transaction, and the category index. The stored pets' keys are written after it, a batch per transaction
 * (SqliteDialect.migrate), each batch entering the table through the fill trigger. On PostgreSQL this adds the column and the pg_trgm extension only, which is
 * instant; the keys and the indexes, which take a while on a large table, are built without blocking its writers by
 * the next migration (IndexNameSearch1796000000001).
 */
export class AddNameSearch1796000000000 implements MigrationInterface {
  name = 'AddNameSearch1796000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE pets ADD COLUMN name_key varchar NULL');
    await perDatabase(queryRunner, { sqlite: sqliteUp, postgres: postgresUp })(queryRunner);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await perDatabase(queryRunner, { sqlite: sqliteDown, postgres: async () => undefined })(queryRunner);
    await queryRunner.query('ALTER TABLE pets DROP COLUMN name_key');
  }
}

async function postgresUp(queryRunner: QueryRunner): Promise<void> {
  // A trusted extension since PostgreSQL 13: the database's owner may create it.
  await queryRunner.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
}

async function sqliteUp(queryRunner: QueryRunner): Promise<void> {
  // Pets without a key: none once the service writes them and the fill is done, so this index stays (nearly) empty.
  await queryRunner.query('CREATE INDEX pets_name_key_missing ON pets (id) WHERE name_key IS NULL');
  await queryRunner.query('CREATE INDEX pets_category_id_id ON pets (category_id, id)');
  // External content: the table indexes `pets.name_key` without a copy of it. Case-sensitive, as the keys are folded
  // already; `detail=full` (the default) is what lets a phrase of trigrams match only where they follow each other.
  // `columnsize=0`: no row of sizes per pet, which only ranking (bm25) reads; one write less per insert.
  await queryRunner.query(
    `CREATE VIRTUAL TABLE pets_name USING fts5(name_key, content='pets', content_rowid='id', tokenize='trigram case_sensitive 1', columnsize=0)`,
  );
  // Names never change: a key is written once, on insert or by the fill; tests and operators may delete a pet.
  await queryRunner.query(`CREATE TRIGGER pets_name_insert AFTER INSERT ON pets WHEN new.name_key IS NOT NULL BEGIN
    INSERT INTO pets_name (rowid, name_key) VALUES (new.id, new.name_key); END`);
  await queryRunner.query(`CREATE TRIGGER pets_name_fill AFTER UPDATE OF name_key ON pets
    WHEN old.name_key IS NULL AND new.name_key IS NOT NULL BEGIN
    INSERT INTO pets_name (rowid, name_key) VALUES (new.id, new.name_key); END`);
  await queryRunner.query(`CREATE TRIGGER pets_name_delete AFTER DELETE ON pets WHEN old.name_key IS NOT NULL BEGIN
    INSERT INTO pets_name (pets_name, rowid, name_key) VALUES ('delete', old.id, old.name_key); END`);
}

async function sqliteDown(queryRunner: QueryRunner): Promise<void> {
  for (const trigger of ['pets_name_insert', 'pets_name_fill', 'pets_name_delete']) await queryRunner.query(`DROP TRIGGER ${trigger}`);
  await queryRunner.query('DROP TABLE pets_name');
  await queryRunner.query('DROP INDEX pets_category_id_id');
  await queryRunner.query('DROP INDEX pets_name_key_missing');
}
