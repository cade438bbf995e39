import type { DataSource } from 'typeorm';
import { Metrics } from '../../src/app/metrics/metrics';
import { PetStore } from '../../src/app/pets/pet.store';
import type { PendingCreate } from '../../src/app/pets/pet-store-requests';
import { postgresPetSql } from '../../src/app/pets/sql/postgres-pet-sql';
import { claimOf as claim, itKeepsTheBatchRules, newPet as pet } from '../support/create-transaction-contract';
import { alwaysServing } from '../support/pet-store-contract';
import { connectPostgres } from '../support/postgres-connection';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

// A batch of creates on PostgreSQL against a real server: what one transaction per batch stores and answers.
describe(`${PetStore.name} on PostgreSQL: writeBatch`, () => {
  let database: TestDatabase;
  let connections: DataSource[];
  const stores = new WeakMap<DataSource, PetStore>();

  /** A connection pool of its own, with a store over it, as another instance would have. */
  async function connect(): Promise<DataSource> {
    const { dataSource, dialect } = await connectPostgres(database);
    connections.push(dataSource);
    stores.set(dataSource, new PetStore(alwaysServing(), new Metrics(), postgresPetSql(dataSource, dialect)));
    return dataSource;
  }

  const writeBatch = (dataSource: DataSource, batch: PendingCreate[]) => (stores.get(dataSource) as PetStore).writeBatch(batch);

  beforeEach(async () => {
    database = await createTestDatabase();
    connections = [];
  });

  afterEach(async () => {
    for (const dataSource of connections) await dataSource.destroy();
    await database.drop();
  });

  const storedClaims = async (dataSource: DataSource) =>
    ((await dataSource.query('SELECT idempotency_key AS "key", pet_id AS "petId", created_at AS "createdAt" FROM idempotency_keys ORDER BY idempotency_key')) as Array<
      Record<string, string>
    >).map(({ key, petId, createdAt }) => ({ key, petId: Number(petId), createdAt: Number(createdAt) }));
  const storedPets = async (dataSource: DataSource) =>
    ((await dataSource.query('SELECT id, name FROM pets ORDER BY id')) as Array<{ id: string; name: string }>).map(({ id, name }) => ({ id: Number(id), name }));

  it('inserts a batch without keys in one statement, each pet with the id it was stored under, in order', async () => {
    const dataSource = await connect();
    const names = Array.from({ length: 50 }, (_, i) => `pet ${i} "quoted", {braced}, back\\slash, ünïcode`);
    const results = await writeBatch(dataSource, names.map((name) => ({ pet: pet(name) })));
    const created = results.map((result) => (result.outcome === 'created' ? { id: result.pet.id, name: result.pet.name } : undefined));
    expect(created).toEqual(await storedPets(dataSource));
    expect(created.map((pet) => pet?.name)).toEqual(names);
  });

  itKeepsTheBatchRules(async () => {
    const dataSource = await connect();
    return { write: (batch) => writeBatch(dataSource, batch), storedPets: () => storedPets(dataSource), storedClaims: () => storedClaims(dataSource) };
  }, /check constraint/);

  it('gives creates with and without keys increasing ids in their order, each key the id of its own pet', async () => {
    const dataSource = await connect();
    const results = await writeBatch(dataSource, [{ pet: pet('a'), claim: claim('a') }, { pet: pet('b') }, { pet: pet('c'), claim: claim('c') }]);
    expect(results.map((result) => result.outcome === 'created' && { id: result.pet.id, name: result.pet.name })).toEqual(await storedPets(dataSource));
    const ids = await storedPets(dataSource);
    expect(ids.map(({ id }) => id)).toEqual([...ids.map(({ id }) => id)].sort((x, y) => x - y));
    expect((await storedClaims(dataSource)).map(({ key, petId }) => [key, petId])).toEqual([
      ['a', ids[0].id],
      ['c', ids[2].id],
    ]);
  });

  it('answers a key that another transaction holds as in use, without waiting for it', async () => {
    const dataSource = await connect();
    const other = dataSource.createQueryRunner();
    await other.connect();
    try {
      await other.startTransaction();
      await other.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, ['env:a\nk']);
      expect(await writeBatch(dataSource, [{ pet: pet('Busy'), claim: claim('k') }, { pet: pet('Free'), claim: claim('f') }])).toEqual([
        { outcome: 'in_use' },
        { outcome: 'created', pet: { ...pet('Free'), id: 1 } },
      ]);
    } finally {
      await other.rollbackTransaction();
      await other.release();
    }
    expect(await writeBatch(dataSource, [{ pet: pet('Busy'), claim: claim('k') }])).toMatchObject([{ outcome: 'created' }]);
  });

  it('creates one pet per key when instances write batches with the same keys at once', async () => {
    const writers = await Promise.all([connect(), connect(), connect()]);
    const batch = (round: number): PendingCreate[] => Array.from({ length: 20 }, (_, i) => ({ pet: pet(`${round}-${i}`), claim: claim(`${round}-${i}`) }));
    for (let round = 0; round < 5; round++) {
      const answers = await Promise.all(writers.map((dataSource) => writeBatch(dataSource, batch(round))));
      for (let i = 0; i < 20; i++) {
        // One instance created the pet; each other found its key stored, or still held by the creating transaction.
        expect(answers.filter((results) => results[i].outcome === 'created')).toHaveLength(1);
        const ids = answers.flatMap((results) => {
          const result = results[i];
          return result.outcome === 'created' ? [result.pet.id] : result.outcome === 'stored' ? [result.petId] : [];
        });
        expect(new Set(ids).size).toBe(1);
      }
    }
    const pets = await storedPets(writers[0]);
    expect(pets).toHaveLength(100);
    expect(new Set(pets.map(({ name }) => name)).size).toBe(100);
  });
});
