import { type MigrationInterface, type QueryRunner, Table, TableIndex } from 'typeorm';
import { perDatabase } from '../per-database';

export class CreatePets1764115200000 implements MigrationInterface {
  name = 'CreatePets1764115200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // SQLite only allows AUTOINCREMENT on INTEGER PRIMARY KEY, which is already 64-bit there; AUTOINCREMENT
    // (not a bare rowid) is what keeps ids from being reused after the newest pet is gone.
    const id = perDatabase(queryRunner, {
      sqlite: { type: 'integer', generationStrategy: 'increment' },
      postgres: { type: 'bigint', generationStrategy: 'identity' },
    } as const);
    await queryRunner.createTable(
      new Table({
        name: 'pets',
        columns: [
          { name: 'id', ...id, isPrimary: true, isGenerated: true },
          { name: 'name', type: 'varchar', length: '100', isNullable: false },
          { name: 'category_id', type: 'bigint', isNullable: false },
          { name: 'status', type: 'varchar', length: '16', isNullable: false },
        ],
        checks: [{ name: 'pets_status_check', expression: `"status" IN ('available', 'pending', 'sold')` }],
      }),
    );
    // Serves `WHERE status = ? AND id > ? ORDER BY id LIMIT ?`, the status-filtered page of listPets.
    await queryRunner.createIndex('pets', new TableIndex({ name: 'pets_status_id', columnNames: ['status', 'id'] }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('pets');
  }
}
