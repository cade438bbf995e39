import { type MigrationInterface, type QueryRunner, Table, TableIndex } from 'typeorm';

export class CreateIdempotencyKeys1764374400000 implements MigrationInterface {
  name = 'CreateIdempotencyKeys1764374400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'idempotency_keys',
        columns: [
          // Keys are scoped to the API key that sent them: its holder name (never the key itself).
          { name: 'holder', type: 'varchar', length: '40', isPrimary: true },
          { name: 'idempotency_key', type: 'varchar', length: '255', isPrimary: true },
          // SHA-256 of the request body in canonical JSON: a retry must send an equal body.
          { name: 'fingerprint', type: 'varchar', length: '64', isNullable: false },
          { name: 'pet_id', type: 'bigint', isNullable: false },
          // Epoch milliseconds, as in api_keys, so that both databases store and compare them alike.
          { name: 'created_at', type: 'bigint', isNullable: false },
        ],
      }),
    );
    // Serves the purge of keys older than 24 hours.
    await queryRunner.createIndex(
      'idempotency_keys',
      new TableIndex({ name: 'idempotency_keys_created_at', columnNames: ['created_at'] }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('idempotency_keys');
  }
}
