import { type MigrationInterface, type QueryRunner, Table } from 'typeorm';

export class CreateApiKeys1764288000000 implements MigrationInterface {
  name = 'CreateApiKeys1764288000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const sqlite = queryRunner.connection.driver.options.type === 'sqlite';
    const time = (name: string, isNullable: boolean) => ({ name, type: 'bigint', isNullable });
    await queryRunner.createTable(
      new Table({
        name: 'api_keys',
        columns: [
          {
            name: 'id',
            type: sqlite ? 'integer' : 'bigint',
            isPrimary: true,
            isGenerated: true,
            generationStrategy: sqlite ? 'increment' : 'identity',
          },
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
