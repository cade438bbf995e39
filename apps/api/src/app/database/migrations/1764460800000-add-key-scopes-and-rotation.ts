import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Scopes and rotation of stored keys. Every existing key gets both scopes, so that no key loses access; the column
 * keeps that default. A key can be replaced once: a second, concurrent `keys rotate` of the same key fails on the
 * unique index rather than leaving two replacements.
 */
export class AddKeyScopesAndRotation1764460800000 implements MigrationInterface {
  name = 'AddKeyScopesAndRotation1764460800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Plain SQL that both databases take as it is; TypeORM's addColumn would rebuild SQLite's table.
    await queryRunner.query(`ALTER TABLE api_keys ADD COLUMN scopes varchar(100) NOT NULL DEFAULT 'pets:read pets:write'`);
    await queryRunner.query('ALTER TABLE api_keys ADD COLUMN replaces_id bigint NULL');
    await queryRunner.query('CREATE UNIQUE INDEX api_keys_replaces_id ON api_keys (replaces_id)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX api_keys_replaces_id');
    await queryRunner.query('ALTER TABLE api_keys DROP COLUMN replaces_id');
    await queryRunner.query('ALTER TABLE api_keys DROP COLUMN scopes');
  }
}
