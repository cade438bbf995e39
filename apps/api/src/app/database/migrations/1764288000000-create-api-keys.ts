import { type MigrationInterface, type QueryRunner, Table } from 'typeorm';
import { perDatabase } from '../per-database';

export class CreateApiKeys1764288000000 implements MigrationInterface {
  name = 'CreateApiKeys1764288000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const id = perDatabase(queryRunner, {
      sqlite: { type: 'integer', generationStrategy: 'increment' },
      postgres: { type: 'bigint', generationStrategy: 'identity' },
    } as const);
    const time = (name: string, isNullable: boolean) => ({ name, type: 'bigint', isNullable });
    await queryRunner.createTable(
      new Table({
        name: 'api_keys',
        columns: [
          { name: 'id', ...id, isPrimary: true, isGenerated: true },
          { name: 'name', type: 'varchar', length: '100', isNullable: false },
          // Unique: authentication looks keys up by their hash.
          { name: 'key_hash', type: 'varchar', length: '64', isNullable: false, isUnique: true },
          { name: 'shown_part', type: 'varchar', length: '16', isNullable: false },
          time('created_at', false),
          time('expires_at', true),
          time('revoked_at', true),
          time('last_used_at', true),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('api_keys');
  }
}
