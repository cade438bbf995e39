import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { claimOf as claim, itKeepsTheBatchRules, newPet as pet } from '../../../../test/support/create-transaction-contract';
import { SqliteDialect } from '../../database/sqlite/sqlite.dialect';
import type { PendingCreate } from './create-group-commit';
import type { Statement } from './create-transaction';
import { writeSqliteCreates } from './sqlite-create-sql';

describe('SQLite creates', () => {
  let dir: string;
  let connections: DataSource[];

  /** Another connection to the same file, as another process would have. */
  async function connect(): Promise<{ dataSource: DataSource; statement: Statement }> {
    const dialect = new SqliteDialect({ type: 'sqlite', path: join(dir, 'petstore.sqlite'), poolSize: 1, connectTimeoutMs: 5_000, statementTimeoutMs: 5_000 });
    const dataSource = await new DataSource(await dialect.options()).initialize();
    await dialect.migrate(dataSource);
    connections.push(dataSource);
    return { dataSource, statement: (sql, parameters) => dataSource.query(sql, parameters) };
  }

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'petstore-sqlite-create-sql-'));
    connections = [];
  });

  afterEach(async () => {
    for (const dataSource of connections) await dataSource.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  const storedClaims = (dataSource: DataSource) =>
    dataSource.query('SELECT idempotency_key AS "key", pet_id AS "petId", created_at AS "createdAt" FROM idempotency_keys ORDER BY idempotency_key');
  const storedPets = (dataSource: DataSource) => dataSource.query('SELECT id, name FROM pets ORDER BY id');

  describe(writeSqliteCreates.name, () => {
    itKeepsTheBatchRules(async () => {
      const { dataSource, statement } = await connect();
      return { write: (batch) => writeSqliteCreates(statement, batch), storedPets: () => storedPets(dataSource), storedClaims: () => storedClaims(dataSource) };
    }, /CHECK/);

    it('gives creates with and without keys consecutive ids in their order, each key the id of its own pet', async () => {
      const { dataSource, statement } = await connect();
      await writeSqliteCreates(statement, [{ pet: pet('Seed') }]);
      const results = await writeSqliteCreates(statement, [{ pet: pet('a'), claim: claim('a') }, { pet: pet('b') }, { pet: pet('c'), claim: claim('c') }]);
      expect(results.map((result) => result.outcome === 'created' && result.pet)).toEqual([
        { ...pet('a'), id: 2 },
        { ...pet('b'), id: 3 },
        { ...pet('c'), id: 4 },
      ]);
      expect((await storedClaims(dataSource)).map(({ key, petId }: { key: string; petId: number }) => [key, petId])).toEqual([
        ['a', 2],
        ['c', 4],
      ]);
    });

    it('creates one pet per key when connections to one file write the same keys at once', async () => {
      const writers = await Promise.all([connect(), connect(), connect()]);
      const batches = (round: number): PendingCreate[] => Array.from({ length: 20 }, (_, i) => ({ pet: pet(`${round}-${i}`), claim: claim(`${round}-${i}`) }));
      for (let round = 0; round < 5; round++) {
        const answers = await Promise.all(writers.map(({ statement }) => writeSqliteCreates(statement, batches(round))));
        for (let i = 0; i < 20; i++) {
          const ids = answers.map((results) => {
            const result = results[i];
            return result.outcome === 'created' ? result.pet.id : result.outcome === 'stored' ? result.petId : undefined;
          });
          // One connection created the pet, the others found its key.
          expect(new Set(ids).size).toBe(1);
          expect(answers.filter((results) => results[i].outcome === 'created')).toHaveLength(1);
        }
      }
      const pets = await storedPets(writers[0].dataSource);
      expect(pets).toHaveLength(100);
      expect(new Set(pets.map((row: { name: string }) => row.name)).size).toBe(100);
    });
  });
});
