import type { MigrationInterface, QueryRunner } from 'typeorm';
import { perDatabase } from '../per-database';
import { analyze, buildConcurrently, untilNotRaced } from './concurrent-indexes';
import { POSTGRES_PIECES_FUNCTION, sqliteShortPiecesOf } from './short-name-index';

/**
 * 1.1.3: an index of the keys' one- and two-character pieces, so that a name search shorter than a trigram looks its
 * pets up instead of reading every key (docs/performance.md, "Searches shorter than a trigram"). Kept by the database
 * itself, so the pets an older version's instance stores during a rolling upgrade are in it too.
 *
 * - SQLite: a contentless FTS5 table (`detail=none`: which pets hold a piece, no positions) of each pet's pieces as
 *   hex tokens (short-name-index.ts), kept by triggers in each write's own transaction. The pets stored before it are
 *   indexed after the migration's lock is let go, a batch per transaction (fillShortNameIndex), from the bookmark made
 *   here.
 * - PostgreSQL: a GIN index on `pet_name_pieces(name_key)`, built CONCURRENTLY (the table's writers go on meanwhile),
 *   then ANALYZE, whose statistics of the index's expression the planner weighs it by.
 */
export class IndexShortNames1796000000003 implements MigrationInterface {
  name = 'IndexShortNames1796000000003';
  // PostgreSQL builds its index CONCURRENTLY, which no transaction may hold; SQLite's runs under the write lock anyway.
  transaction = false;

  async up(queryRunner: QueryRunner): Promise<void> {
    await perDatabase(queryRunner, { sqlite: sqliteUp, postgres: postgresUp })(queryRunner);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await perDatabase(queryRunner, { sqlite: sqliteDown, postgres: postgresDown })(queryRunner);
  }
}

async function sqliteUp(queryRunner: QueryRunner): Promise<void> {
  // Contentless, with deletes: nothing of the keys is copied, and a pet deleted leaves no trace in it.
  await queryRunner.query(`CREATE VIRTUAL TABLE pets_name_short USING fts5(pieces, content='', contentless_delete=1, detail=none, tokenize='ascii')`);
  await queryRunner.query(`CREATE TRIGGER pets_name_short_insert AFTER INSERT ON pets WHEN new.name_key IS NOT NULL BEGIN
    INSERT INTO pets_name_short (rowid, pieces) VALUES (new.id, ${sqliteShortPiecesOf('new.name_key')}); END`);
  // A key written later (a pet of 1.0 keyed) or rewritten (refolded): its pieces replace whatever the pet had.
  await queryRunner.query(`CREATE TRIGGER pets_name_short_rekey AFTER UPDATE OF name_key ON pets
    WHEN new.name_key IS NOT NULL AND new.name_key IS NOT old.name_key BEGIN
    INSERT OR REPLACE INTO pets_name_short (rowid, pieces) VALUES (new.id, ${sqliteShortPiecesOf('new.name_key')}); END`);
  await queryRunner.query(`CREATE TRIGGER pets_name_short_delete AFTER DELETE ON pets BEGIN
    DELETE FROM pets_name_short WHERE rowid = old.id; END`);
  // Every pet stored until now is to be indexed by the fill; every one from now on is by the triggers.
  await queryRunner.query('CREATE TABLE pets_name_short_fill (through INTEGER NOT NULL, until INTEGER NOT NULL)');
  await queryRunner.query('INSERT INTO pets_name_short_fill SELECT 0, max(id) FROM pets HAVING max(id) IS NOT NULL');
}

async function sqliteDown(queryRunner: QueryRunner): Promise<void> {
  for (const trigger of ['pets_name_short_insert', 'pets_name_short_rekey', 'pets_name_short_delete']) await queryRunner.query(`DROP TRIGGER ${trigger}`);
  await queryRunner.query('DROP TABLE pets_name_short_fill');
  await queryRunner.query('DROP TABLE pets_name_short');
}

async function postgresUp(queryRunner: QueryRunner): Promise<void> {
  // Instances starting together each run this migration (outside the migration lock, as it builds CONCURRENTLY).
  await untilNotRaced(queryRunner, POSTGRES_PIECES_FUNCTION);
  await buildConcurrently(queryRunner, 'pets_name_pieces', 'ON pets USING gin (pet_name_pieces(name_key))');
  await analyze(queryRunner);
}

async function postgresDown(queryRunner: QueryRunner): Promise<void> {
  await queryRunner.query('DROP INDEX CONCURRENTLY IF EXISTS pets_name_pieces');
  await queryRunner.query('DROP FUNCTION IF EXISTS pet_name_pieces(text)');
}
