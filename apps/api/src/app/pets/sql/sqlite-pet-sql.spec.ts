import { nameSearchKey } from '@petstore/contract';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { claimOf as claim, itKeepsTheBatchRules, newPet as pet } from '../../../../test/support/create-transaction-contract';
import { alwaysServing, itServesPetsAsTheModel } from '../../../../test/support/pet-store-contract';
import { SqliteDialect } from '../../database/sqlite/sqlite.dialect';
import { TransactionQueue } from '../../database/sqlite/transaction-queue';
import { Metrics } from '../../metrics/metrics';
import { PetStore } from '../pet.store';
import type { PendingCreate } from '../pet-store-requests';
import { sqlitePetSql } from './sqlite-pet-sql';

/** A migrated database at `path`, and the store over it: another connection to the same file, as another process has. */
async function openStore(path: string) {
  const dialect = new SqliteDialect({ type: 'sqlite', path, poolSize: 1, connectTimeoutMs: 5_000, statementTimeoutMs: 5_000 });
  const dataSource = await new DataSource(await dialect.options()).initialize();
  await dialect.migrate(dataSource);
  return { dataSource, dialect, store: new PetStore(alwaysServing(), new Metrics(), sqlitePetSql(dataSource, dialect, alwaysServing())) };
}

const storedClaims = (dataSource: DataSource) =>
  dataSource.query('SELECT idempotency_key AS "key", pet_id AS "petId", created_at AS "createdAt" FROM idempotency_keys ORDER BY idempotency_key');
const storedPets = (dataSource: DataSource) => dataSource.query('SELECT id, name FROM pets ORDER BY id');

// SQLite's statements on a file: the FTS5 tables (trigrams, and the short pieces), FTS5's phrase syntax taken
// literally, the small category's way in, the read-only connections that serve reads, and the writes of a batch under
// the file's write lock.
describe(sqlitePetSql.name, () => {
  let dir: string;
  let connections: DataSource[];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'petstore-sqlite-pet-sql-'));
    connections = [];
  });

  afterEach(async () => {
    for (const dataSource of connections) await dataSource.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  async function open(path = join(dir, 'petstore.sqlite')) {
    const opened = await openStore(path);
    connections.push(opened.dataSource);
    return opened;
  }

  describe('reads', () => {
    itServesPetsAsTheModel(async (pets) => {
      const modelDir = mkdtempSync(join(tmpdir(), 'petstore-sqlite-pet-sql-model-'));
      const { dataSource, store } = await openStore(join(modelDir, 'petstore.sqlite'));
      const rows = pets.map(({ id, name, categoryId, status }) => [id, name, categoryId, status, nameSearchKey(name)]);
      await dataSource.query(
        `INSERT INTO pets (id, name, category_id, status, name_key)
         SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4 FROM json_each(?)`,
        [JSON.stringify(rows)],
      );
      return {
        store,
        query: (sql) => dataSource.query(sql),
        close: async () => {
          await dataSource.destroy();
          rmSync(modelDir, { recursive: true, force: true });
        },
      };
    });

    it('reads on connections of its own, beside the writer: a write not yet committed is not seen', async () => {
      const { dataSource, store } = await open();
      await dataSource.query('BEGIN');
      await dataSource.query(`INSERT INTO pets (name, category_id, status, name_key) VALUES ('Rex', 1, 'available', 'rex')`);
      expect(await store.findById(1)).toBeUndefined();
      expect(await store.findPage({ filters: {}, afterId: 0, take: 5 })).toEqual([]);
      await dataSource.query('COMMIT');
      expect(await store.findById(1)).toEqual({ id: 1, name: 'Rex', categoryId: 1, status: 'available' });
    });

    it('reads on its one connection when the database is in memory, where no other connection could see it', async () => {
      const { dataSource, store } = await open(':memory:');
      await dataSource.query(`INSERT INTO pets (name, category_id, status, name_key) VALUES ('Rex', 1, 'available', 'rex')`);
      expect(await store.findPage({ filters: { name: 'EX' }, afterId: 0, take: 5 })).toEqual([{ id: 1, name: 'Rex', categoryId: 1, status: 'available' }]);
    });
  });

  describe("a write's ends", () => {
    /** A connection that answers every statement, failing those named in `failing`, and logs them. */
    function scripted(failing: string[]) {
      const log: string[] = [];
      const transactions = new TransactionQueue();
      const dataSource = {
        query: async (sql: string) => {
          log.push(sql);
          if (failing.includes(sql)) throw new Error(`${sql} failed`);
          return [];
        },
      } as unknown as DataSource;
      const sql = sqlitePetSql(dataSource, { transactions, config: { path: ':memory:' } } as SqliteDialect, alwaysServing());
      /** Whether the turn is free: another transaction of the connection runs. */
      const turnIsFree = () => transactions.run(async () => true);
      return { log, sql, turnIsFree };
    }

    it('rolls back a write whose COMMIT fails, in its turn, and lets the next writer go', async () => {
      const { log, sql, turnIsFree } = scripted(['COMMIT']);
      const write = await sql.beginWrite(true);
      await expect(write.commit()).rejects.toThrow('COMMIT failed');
      expect(log).toEqual(['BEGIN IMMEDIATE', 'COMMIT', 'ROLLBACK']);
      await expect(turnIsFree()).resolves.toBe(true);
    });

    it('lets the next writer go when BEGIN fails, and after a rollback that fails', async () => {
      const failedBegin = scripted(['BEGIN IMMEDIATE']);
      await expect(failedBegin.sql.beginWrite(true)).rejects.toThrow('BEGIN IMMEDIATE failed');
      await expect(failedBegin.turnIsFree()).resolves.toBe(true);
      const failedRollback = scripted(['ROLLBACK']);
      await (await failedRollback.sql.beginWrite(true)).rollback();
      expect(failedRollback.log).toEqual(['BEGIN IMMEDIATE', 'ROLLBACK']);
      await expect(failedRollback.turnIsFree()).resolves.toBe(true);
    });

    it('holds the turn from its beginning to its end, without a transaction of its own when not isolated', async () => {
      const { log, sql, turnIsFree } = scripted([]);
      const write = await sql.beginWrite(false);
      let free = false;
      const next = turnIsFree().then(() => (free = true));
      await new Promise((resolve) => setImmediate(resolve));
      expect(free).toBe(false);
      await write.commit();
      await next;
      expect(log).toEqual([]);
    });
  });

  describe('writes', () => {
    itKeepsTheBatchRules(async () => {
      const { dataSource, store } = await open();
      return { write: (batch) => store.writeBatch(batch), storedPets: () => storedPets(dataSource), storedClaims: () => storedClaims(dataSource) };
    }, /CHECK/);

    it('gives creates with and without keys consecutive ids in their order, each key the id of its own pet', async () => {
      const { dataSource, store } = await open();
      await store.writeBatch([{ pet: pet('Seed') }]);
      const results = await store.writeBatch([{ pet: pet('a'), claim: claim('a') }, { pet: pet('b') }, { pet: pet('c'), claim: claim('c') }]);
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
      const writers = await Promise.all([open(), open(), open()]);
      const batches = (round: number): PendingCreate[] => Array.from({ length: 20 }, (_, i) => ({ pet: pet(`${round}-${i}`), claim: claim(`${round}-${i}`) }));
      for (let round = 0; round < 5; round++) {
        const answers = await Promise.all(writers.map(({ store }) => store.writeBatch(batches(round))));
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

    it("writes in its turn among the connection's transactions: a batch without keys never joins one that is open", async () => {
      const { dataSource, dialect, store } = await open();
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      // Another writer's transaction on the same connection (the webhook outbox's), rolled back once released.
      const other = dialect.transactions.run(async () => {
        await dataSource.query('BEGIN IMMEDIATE');
        await held;
        await dataSource.query('ROLLBACK');
      });
      await new Promise((resolve) => setImmediate(resolve));
      const created = store.writeBatch([{ pet: pet('Kept') }]);
      release();
      await other;
      expect(await created).toEqual([{ outcome: 'created', pet: { ...pet('Kept'), id: 1 } }]);
      expect(await storedPets(dataSource)).toEqual([{ id: 1, name: 'Kept' }]);
    });
  });
});
