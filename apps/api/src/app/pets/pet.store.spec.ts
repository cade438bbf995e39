import { type Pet, PetStatus } from '@petstore/contract';
import type { DatabaseConnection } from '../database/database-connection';
import { databaseReadOnly, serviceUnavailable } from '../database/database-failure';
import { Metrics } from '../metrics/metrics';
import type { IdempotencyClaim } from './idempotency/idempotency-key';
import { PetStore } from './pet.store';
import type { PetPageQuery, PetToCreate } from './pet-store-requests';
import type { PetSql, Statement } from './sql/pet-sql';

/** The connection's answers, with what the test says the database can do now. */
function connection() {
  const state = { serving: true, writable: true };
  const assertServing = () => {
    if (!state.serving) throw serviceUnavailable();
  };
  const database = {
    assertServing,
    get writable() {
      return state.serving && state.writable;
    },
    run: async <T>(work: () => Promise<T>) => {
      assertServing();
      return work();
    },
    runWrite: async <T>(work: () => Promise<T>) => {
      assertServing();
      if (!state.writable) throw databaseReadOnly();
      return work();
    },
  };
  return { state, database: database as unknown as DatabaseConnection };
}

const petOf = (id: number): Pet => ({ id, name: `Pet ${id}`, categoryId: 1, status: PetStatus.Available });
const newPet = (name: string): PetToCreate => ({ name, categoryId: 1, status: PetStatus.Available });
const claim = (key: string): IdempotencyClaim => ({ holder: 'env:a', key, fingerprint: `fp-${key}`, createdAt: Date.now() });

/**
 * A database whose reads and inserts wait until the test finishes them, recording what each was asked and every step
 * of the writes. Keys: `stored` answers selectClaims, `heldElsewhere` keysHeldElsewhere; an insert of a pet named
 * "fail" rejects.
 */
function heldSql() {
  const sql = {
    pageReads: [] as Array<{ sql: string; finish: () => void }>,
    idReads: [] as Array<{ ids: number[]; finish: () => void }>,
    inserts: [] as Array<{ names: string[]; finish: () => void }>,
    steps: [] as string[],
    heldElsewhere: new Set<string>(),
    nameKeysFilled: 0,
    nextId: 1,
  };
  const statement: Statement = async () => undefined;
  const petSql: PetSql = {
    readConnections: 1,
    pages: { selectList: '*', wrap: (select) => select, trigramName: undefined as never, shortName: undefined as never, scannedName: '', numbered: false },
    byIds: (ids) => new Promise((resolve) => sql.idReads.push({ ids, finish: () => resolve(ids.map(petOf)) })),
    page: ({ sql: text }) => new Promise((resolve) => sql.pageReads.push({ sql: text, finish: () => resolve([petOf(1)]) })),
    async beginWrite(isolated) {
      sql.steps.push(isolated ? 'begin isolated' : 'begin');
      return { statement, commit: async () => void sql.steps.push('commit'), rollback: async () => void sql.steps.push('rollback') };
    },
    insertPets: (_, pets) =>
      new Promise((resolve, reject) => {
        sql.steps.push(`insert ${pets.map(({ name }) => name).join(',')}`);
        const finish = () => (pets.some(({ name }) => name === 'fail') ? reject(new Error('disk full')) : resolve(pets.map((pet) => ({ ...pet, id: sql.nextId++ }))));
        sql.inserts.push({ names: pets.map(({ name }) => name), finish });
      }),
    async keysHeldElsewhere(_, claims) {
      sql.steps.push(`lock ${claims.map(({ key }) => key).join(',')}`);
      return new Set(claims.filter(({ key }) => sql.heldElsewhere.has(key)).map(({ holder, key }) => `${holder}\n${key}`));
    },
    async selectClaims(_, claims) {
      sql.steps.push(`select ${claims.map(({ key }) => key).join(',')}`);
      return [];
    },
    async upsertClaims(_, rows) {
      sql.steps.push(`upsert ${rows.map(({ key, petId }) => `${key}=${petId}`).join(',')}`);
    },
    purgeClaims: async () => undefined,
    async fillNameKeys() {
      sql.nameKeysFilled += 1;
      return 7;
    },
  };
  return { sql, petSql };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));
const page = (afterId: number): PetPageQuery => ({ filters: {}, afterId, take: 21 });

/** The `_sum` and `_count` of a histogram's series, as a scrape shows them. */
async function observed(metrics: Metrics, series: string): Promise<{ sum: number; count: number }> {
  const text = await metrics.registry.metrics();
  const [name, labels = ''] = series.split(/(?=\{)/);
  const value = (suffix: string) => {
    const line = `${name}${suffix}${labels} `;
    return Number(text.split('\n').find((row) => row.startsWith(line))?.slice(line.length));
  };
  return { sum: value('_sum'), count: value('_count') };
}

// What the store decides whatever the database: the 503 before a read queues, the search keys left alone while the
// database takes no writes, the group commit, the create transaction's steps and the batch sizes the metrics report.
// Each database's statements are tried on it: sql/sqlite-pet-sql.spec.ts, test/postgres/.
describe(PetStore.name, () => {
  let metrics: Metrics;
  let state: ReturnType<typeof connection>['state'];
  let sql: ReturnType<typeof heldSql>['sql'];
  let sut: PetStore;

  beforeEach(() => {
    metrics = new Metrics();
    const { state: shared, database } = connection();
    state = shared;
    const held = heldSql();
    sql = held.sql;
    sut = new PetStore(database, metrics, held.petSql);
  });

  it.each([
    ['a page', (store: PetStore) => store.findPage(page(0)), () => sql.pageReads[0].finish()],
    ['a pet by id', (store: PetStore) => store.findById(1), () => sql.idReads[0].finish()],
  ])('refuses %s with a 503 at once while the database cannot serve, not behind a read that hangs', async (_, read, finishFirst) => {
    const events: string[] = [];
    const hanging = read(sut);
    state.serving = false;
    // Another read, which would otherwise wait for the one that hangs to end.
    const refused = read(sut).catch((error: unknown) => events.push(`refused ${(error as { code?: string }).code}`));
    await settle();
    events.push('hanging read ended');
    finishFirst();
    await hanging;
    await refused;
    expect(events).toEqual(['refused service_unavailable', 'hanging read ended']);
  });

  it('leaves the search keys alone, without a refusal, while the database takes no writes', async () => {
    state.writable = false;
    await expect(sut.completeNameKeys()).resolves.toBe(0);
    expect(sql.nameKeysFilled).toBe(0);
    state.writable = true;
    await expect(sut.completeNameKeys()).resolves.toBe(7);
    expect(sql.nameKeysFilled).toBe(1);
  });

  it('writes the creates that arrive during a commit together in the next batch, answers each with its own pet, and reports the batch sizes', async () => {
    const first = sut.insert(newPet('a'));
    await settle();
    const during = ['b', 'c', 'd'].map((name) => sut.insert(newPet(name)));
    sql.inserts[0].finish();
    await first;
    await settle();
    sql.inserts[1].finish();
    expect((await Promise.all([first, ...during])).map(({ id, name }) => [id, name])).toEqual([
      [1, 'a'],
      [2, 'b'],
      [3, 'c'],
      [4, 'd'],
    ]);
    expect(sql.inserts.map(({ names }) => names)).toEqual([['a'], ['b', 'c', 'd']]);
    expect(await observed(metrics, 'petstore_group_commit_batch_size')).toEqual({ sum: 4, count: 2 });
  });

  it('writes a batch without keys as one insert, and one with keys in an isolated write: held keys, stored keys, pets, their keys', async () => {
    sql.heldElsewhere.add('h');
    const batch = sut.writeBatch([{ pet: newPet('a') }, { pet: newPet('b'), claim: claim('k') }, { pet: newPet('c'), claim: claim('h') }, { pet: newPet('d'), claim: claim('k') }]);
    await settle();
    sql.inserts[0].finish();
    expect(await batch).toEqual([{ outcome: 'created', pet: { ...newPet('a'), id: 1 } }, { outcome: 'created', pet: { ...newPet('b'), id: 2 } }, { outcome: 'in_use' }, { outcome: 'in_use' }]);
    const alone = sut.writeBatch([{ pet: newPet('e') }]);
    await settle();
    sql.inserts[1].finish();
    await alone;
    expect(sql.steps).toEqual(['begin isolated', 'lock k,h,k', 'select k,h,k', 'insert a,b', 'upsert k=2', 'commit', 'begin', 'insert e', 'commit']);
  });

  it('neither inserts nor stores keys when every create of a batch is answered without a write', async () => {
    sql.heldElsewhere.add('h');
    await expect(sut.writeBatch([{ pet: newPet('a'), claim: claim('h') }])).resolves.toEqual([{ outcome: 'in_use' }]);
    expect(sql.steps).toEqual(['begin isolated', 'lock h', 'select h', 'commit']);
  });

  it('rolls a batch whose write fails back, rejects every create of it, and forgets its keys', async () => {
    const first = sut.insert(newPet('a'));
    await settle();
    const failing = [sut.insert(newPet('fail')), sut.insertIdempotently(newPet('b'), claim('f'))];
    sql.inserts[0].finish();
    await first;
    await settle();
    sql.inserts[1].finish();
    await expect(failing[0]).rejects.toThrow('disk full');
    await expect(failing[1]).rejects.toThrow('disk full');
    expect(sql.steps).toEqual(['begin', 'insert a', 'commit', 'begin isolated', 'lock f', 'select f', 'insert fail,b', 'rollback']);
    // The failed batch's key is free again: a repeat goes to the database, which decides.
    const again = sut.insertIdempotently(newPet('b'), claim('f'));
    await settle();
    sql.inserts[2].finish();
    await expect(again).resolves.toMatchObject({ outcome: 'created' });
  });

  it('answers a create whose key the batch being committed holds as in use at once, without queueing it', async () => {
    const first = sut.insertIdempotently(newPet('Slow'), claim('k'));
    await settle();
    await expect(sut.insertIdempotently(newPet('Slow'), claim('k'))).resolves.toEqual({ outcome: 'in_use' });
    sql.inserts[0].finish();
    await expect(first).resolves.toEqual({ outcome: 'created', pet: { ...newPet('Slow'), id: 1 } });
    // Once committed, the key is forgotten here: a repeat goes to the database, which decides.
    const repeat = sut.insertIdempotently(newPet('Slow'), claim('k'));
    await settle();
    expect(sql.steps.filter((step) => step.startsWith('begin'))).toHaveLength(2);
    sql.inserts[1].finish();
    await repeat;
  });

  it('reports how many creates wait for the next group commit while one is written', async () => {
    const first = sut.insert(newPet('a'));
    await settle();
    const during = ['b', 'c', 'd'].map((name) => sut.insert(newPet(name)));
    const scrape = await metrics.registry.metrics();
    expect(scrape).toContain('# HELP petstore_group_commit_waiting Creates gathered for the next group commit while one is being written.');
    expect(scrape).toContain('petstore_group_commit_waiting 3');
    sql.inserts[0].finish();
    await first;
    await settle();
    sql.inserts[1].finish();
    await Promise.all(during);
    expect(await metrics.registry.metrics()).toContain('petstore_group_commit_waiting 0');
  });

  it('reports how many requests each lookup answered, by kind', async () => {
    const byId = [sut.findById(1), sut.findById(2), sut.findById(3), sut.findById(2)];
    const pages = [sut.findPage(page(0)), sut.findPage(page(5)), sut.findPage(page(5))];
    await settle();
    sql.idReads[0].finish();
    sql.pageReads[0].finish();
    await settle();
    sql.idReads[1].finish();
    sql.pageReads[1].finish();
    await Promise.all([...byId, ...pages]);
    // By id: 1 alone, then 2, 3 and 2 again in one lookup. Pages: `after 0` alone, then both `after 5` in one read.
    expect(sql.idReads.map(({ ids }) => ids)).toEqual([[1], [2, 3]]);
    expect(sql.pageReads).toHaveLength(2);
    expect(await observed(metrics, 'petstore_lookup_batch_size{lookup="by_id"}')).toEqual({ sum: 4, count: 2 });
    expect(await observed(metrics, 'petstore_lookup_batch_size{lookup="page"}')).toEqual({ sum: 3, count: 2 });
  });
});
