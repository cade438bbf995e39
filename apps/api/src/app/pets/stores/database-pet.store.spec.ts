import { type Pet, PetStatus } from '@petstore/contract';
import type { DatabaseConnection } from '../../database/database-connection';
import { databaseReadOnly, serviceUnavailable } from '../../database/database-failure';
import { Metrics } from '../../metrics/metrics';
import type { IdempotentInsert, PetPageQuery } from '../pet.store';
import type { PendingCreate } from './create-group-commit';
import { answers } from './create-transaction';
import { DatabasePetStore } from './database-pet.store';
import type { PageStatement } from './pet-page-sql';

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

/** A store whose reads and commits wait until the test finishes them, recording what each was asked. */
class HeldStore extends DatabasePetStore {
  readonly pageReads: Array<{ sql: string; finish: () => void }> = [];
  readonly idReads: Array<{ ids: number[]; finish: () => void }> = [];
  readonly commits: Array<{ size: number; finish: () => void }> = [];
  nameKeysFilled = 0;

  constructor(database: DatabaseConnection, metrics: Metrics) {
    super(database, metrics, 1);
  }

  protected pageStatement({ afterId }: PetPageQuery): PageStatement {
    return { sql: `page after ${afterId}`, values: [] };
  }

  protected selectPage({ sql }: PageStatement): Promise<Pet[]> {
    return new Promise((resolve) => this.pageReads.push({ sql, finish: () => resolve([petOf(1)]) }));
  }

  protected selectByIds(ids: number[]): Promise<Pet[]> {
    return new Promise((resolve) => this.idReads.push({ ids, finish: () => resolve(ids.map(petOf)) }));
  }

  protected writeCreates(batch: PendingCreate[]): Promise<IdempotentInsert[]> {
    const created = batch.map(({ pet }, index) => ({ ...pet, id: this.commits.length * 100 + index }));
    return new Promise((resolve) => this.commits.push({ size: batch.length, finish: () => resolve(answers(batch.map(() => 'create'), created)) }));
  }

  protected async fillNameKeys(): Promise<number> {
    this.nameKeysFilled += 1;
    return 7;
  }

  protected async deleteIdempotencyKeys(): Promise<unknown> {
    return undefined;
  }
}

const settle = () => new Promise((resolve) => setImmediate(resolve));
const page = (afterId: number): PetPageQuery => ({ afterId, take: 21 });

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

// What both databases' stores share (DatabasePetStore): the 503 before a read queues, the search keys left alone while
// the database takes no writes, and the batch sizes the metrics report.
describe(DatabasePetStore.name, () => {
  let metrics: Metrics;
  let state: ReturnType<typeof connection>['state'];
  let sut: HeldStore;

  beforeEach(() => {
    metrics = new Metrics();
    const { state: shared, database } = connection();
    state = shared;
    sut = new HeldStore(database, metrics);
  });

  it.each([
    ['a page', (store: HeldStore) => store.findPage(page(0)), (store: HeldStore) => store.pageReads[0].finish()],
    ['a pet by id', (store: HeldStore) => store.findById(1), (store: HeldStore) => store.idReads[0].finish()],
  ])('refuses %s with a 503 at once while the database cannot serve, not behind a read that hangs', async (_, read, finishFirst) => {
    const events: string[] = [];
    const hanging = read(sut);
    state.serving = false;
    // Another read, which would otherwise wait for the one that hangs to end.
    const refused = read(sut).catch((error: unknown) => events.push(`refused ${(error as { code?: string }).code}`));
    await settle();
    events.push('hanging read ended');
    finishFirst(sut);
    await hanging;
    await refused;
    expect(events).toEqual(['refused service_unavailable', 'hanging read ended']);
  });

  it('leaves the search keys alone, without a refusal, while the database takes no writes', async () => {
    state.writable = false;
    await expect(sut.completeNameKeys()).resolves.toBe(0);
    expect(sut.nameKeysFilled).toBe(0);
    state.writable = true;
    await expect(sut.completeNameKeys()).resolves.toBe(7);
    expect(sut.nameKeysFilled).toBe(1);
  });

  it('reports how many creates each group commit wrote', async () => {
    const pet = { name: 'Rex', categoryId: 1, status: PetStatus.Available };
    const first = sut.insert(pet);
    await settle();
    const during = [sut.insert(pet), sut.insert(pet), sut.insert(pet)];
    sut.commits[0].finish();
    await first;
    await settle();
    sut.commits[1].finish();
    await Promise.all(during);
    expect(sut.commits.map(({ size }) => size)).toEqual([1, 3]);
    expect(await observed(metrics, 'petstore_group_commit_batch_size')).toEqual({ sum: 4, count: 2 });
  });

  it('reports how many requests each lookup answered, by kind', async () => {
    const byId = [sut.findById(1), sut.findById(2), sut.findById(3), sut.findById(2)];
    const pages = [sut.findPage(page(0)), sut.findPage(page(5)), sut.findPage(page(5))];
    await settle();
    sut.idReads[0].finish();
    sut.pageReads[0].finish();
    await settle();
    sut.idReads[1].finish();
    sut.pageReads[1].finish();
    await Promise.all([...byId, ...pages]);
    // By id: 1 alone, then 2, 3 and 2 again in one lookup. Pages: `after 0` alone, then both `after 5` in one read.
    expect(sut.idReads.map(({ ids }) => ids)).toEqual([[1], [2, 3]]);
    expect(sut.pageReads.map(({ sql }) => sql)).toEqual(['page after 0', 'page after 5']);
    expect(await observed(metrics, 'petstore_lookup_batch_size{lookup="by_id"}')).toEqual({ sum: 4, count: 2 });
    expect(await observed(metrics, 'petstore_lookup_batch_size{lookup="page"}')).toEqual({ sum: 3, count: 2 });
  });
});
