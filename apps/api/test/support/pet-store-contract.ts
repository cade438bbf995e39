import { nameSearchKey, type Pet, PetStatus } from '@petstore/contract';
import type { DatabaseConnection } from '../../src/app/database/database-connection';
import type { PetStore } from '../../src/app/pets/pet.store';
import type { PetPageQuery } from '../../src/app/pets/pet-store-requests';
import { claimOf, newPet } from './create-transaction-contract';

/** A database that always serves: what a store does when it cannot is database-connection.spec's. */
export const alwaysServing = (): DatabaseConnection =>
  ({ assertServing: () => undefined, run: <T>(work: () => T) => work(), runWrite: <T>(work: () => T) => work(), writable: true, beforeClose: () => undefined }) as unknown as DatabaseConnection;

/** A database's pets store on a migrated database holding `pets` (ids as given, the sequence past them). */
export interface StoreUnderTest {
  store: PetStore;
  query(sql: string): Promise<unknown[]>;
  close(): Promise<void>;
}

const STATUSES = [PetStatus.Available, PetStatus.Pending, PetStatus.Sold];
// Names a search could confuse: LIKE's % and _ and its escape, FTS5's quote, two-letter pieces, a final sigma, and
// matches on both sides of the first 5,000 pets (PostgreSQL's short search walks them first).
const SPECIAL = ['100% Rex', 'Rex_1', 'Re\\x', 'Rex', 'rEX', 'Bo "Boss"', 'Ὀδυσσεύς', 'Ab%', 'Max 1', 'a_b'];
const nameOf = (i: number) => (i % 601 === 0 ? SPECIAL[(i / 601) % SPECIAL.length] : `Pet ${i} ${['cat', 'dog', 'ox'][i % 3]}`);
/** 6,500 pets: category 1 holds most of them (more than SQLite's small category), category 2 one in ten. */
export const MODEL_PETS: readonly Pet[] = Array.from({ length: 6_500 }, (_, index) => {
  const id = index + 1;
  return { id, name: nameOf(id), categoryId: id % 10 === 0 ? 2 : 1, status: STATUSES[id % 3] };
});

/**
 * What every database's pets store answers, compared with a model of the pets it holds: name searches of every length
 * and with the characters each database's search syntax gives a meaning, with and without the other filters, on every
 * page; reads by id; the idempotency keys' purge; the search keys' completion. Requests are sent at once: the store
 * shares and batches reads, and each must still get its own answer.
 */
export function itServesPetsAsTheModel(open: (pets: readonly Pet[]) => Promise<StoreUnderTest>): void {
  let sut: StoreUnderTest;
  beforeAll(async () => {
    sut = await open(MODEL_PETS);
  });
  afterAll(() => sut.close());

  /** The page the model answers, as listPets means it. */
  const expected = ({ filters: { status, categoryId, name }, afterId, take }: PetPageQuery) =>
    MODEL_PETS.filter((pet) => pet.id > afterId && (status === undefined || pet.status === status) && (categoryId === undefined || pet.categoryId === categoryId))
      .filter((pet) => name === undefined || nameSearchKey(pet.name).includes(nameSearchKey(name)))
      .slice(0, take);

  it.each(['%', '_', '\\', '"', '0%', 'x_', 'e\\x', 'x_1', '0%c', 'o "b', 'rex', 're', 'b', 'ὀδυσσεύς', 'υσ', 'pet 64', 'ox', 'nobody'])(
    'finds the pets whose name holds %j, on every page, with and without other filters, as the model does',
    async (name) => {
      const queries: PetPageQuery[] = [
        { filters: { name }, afterId: 0, take: 20 },
        { filters: { name }, afterId: 4_990, take: 20 },
        { filters: { name }, afterId: 6_400, take: 50 },
        { filters: { name, status: PetStatus.Sold }, afterId: 0, take: 5 },
        { filters: { name, categoryId: 1, status: PetStatus.Pending }, afterId: 1_000, take: 10 },
        { filters: { name, categoryId: 2 }, afterId: 0, take: 10 },
      ];
      const pages = await Promise.all(queries.map((query) => sut.store.findPage(query)));
      expect(pages).toEqual(queries.map(expected));
    },
  );

  it('lists every page of the filters without a name, as the model does', async () => {
    const queries: PetPageQuery[] = [
      { filters: {}, afterId: 0, take: 3 },
      { filters: {}, afterId: 6_498, take: 5 },
      { filters: { status: PetStatus.Available }, afterId: 100, take: 4 },
      { filters: { categoryId: 2 }, afterId: 15, take: 3 },
      { filters: { categoryId: 2, status: PetStatus.Sold }, afterId: 0, take: 2 },
      { filters: { categoryId: 3 }, afterId: 0, take: 2 },
    ];
    expect(await Promise.all(queries.map((query) => sut.store.findPage(query)))).toEqual(queries.map(expected));
  });

  it('finds a short name among pets after the first 5,000 when none of those holds it', async () => {
    const query = { filters: { name: '_B' }, afterId: 0, take: 10 };
    expect(expected(query)).toEqual([MODEL_PETS[5_408]]);
    expect(await sut.store.findPage(query)).toEqual([MODEL_PETS[5_408]]);
  });

  it('reads pets by id, many at once, each its own or nothing', async () => {
    const ids = [1, 2, 601, 6_500, 6_501, 0, 4_321, 2];
    expect(await Promise.all(ids.map((id) => sut.store.findById(id)))).toEqual(ids.map((id) => MODEL_PETS.find((pet) => pet.id === id)));
  });

  it('forgets the idempotency keys created at or before the given time, and no other', async () => {
    await sut.store.insertIdempotently(newPet('Early'), claimOf('early', 'fp', 1_000));
    await sut.store.insertIdempotently(newPet('Late'), claimOf('late', 'fp', 1_001));
    await sut.store.purgeIdempotencyKeys(1_000);
    expect(await sut.query('SELECT idempotency_key AS "key" FROM idempotency_keys')).toEqual([{ key: 'late' }]);
    await sut.query('DELETE FROM pets WHERE id > 6500');
  });

  it('writes the search key an older version left out', async () => {
    await sut.query('UPDATE pets SET name_key = NULL WHERE id IN (3, 4)');
    expect(await sut.store.completeNameKeys()).toBe(2);
    expect(await sut.query('SELECT name_key FROM pets WHERE id IN (3, 4) ORDER BY id')).toEqual([3, 4].map((id) => ({ name_key: nameSearchKey(nameOf(id)) })));
  });
}
