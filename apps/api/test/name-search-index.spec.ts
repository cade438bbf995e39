import { nameSearchKey } from '@petstore/contract';
import { DataSource } from 'typeorm';
import type { PetPageQuery } from '../src/app/pets/pet.store';
import { statementFor } from '../src/app/pets/stores/pet-page-sql';
import { postgresPageStatement } from '../src/app/pets/stores/postgres-pet.store';
import { sqlitePageStatement } from '../src/app/pets/stores/sqlite-pet.store';
import { cursorAfter } from './support/contract-model';
import { AUTH, startApp, type TestApp } from './support/test-app';
import { TEST_DATABASE } from './support/test-database';

// behaviour.md: from 1.1.0, `name` and `categoryId` are "served by an index on both databases". The statements the
// stores send, explained by the database they run on, over enough pets that an index is worth it to the planner.
describe(`listPets filters served by an index (${TEST_DATABASE})`, () => {
  const PETS = 20_000;
  let sut: TestApp;

  beforeAll(async () => {
    sut = await startApp();
    const dataSource = sut.app.get(DataSource);
    // Straight into the table, as the service writes pets (with their keys): 20,000 POSTs would test nothing more.
    // Category 7 is rare (ten pets), the rest are category 1; one name shares no trigram with the others, as a real
    // name among "Pet <n>" would.
    const nameOf = (n: number) => (n === PETS / 2 ? 'Zyxwvut' : `Pet ${n}`);
    const pets = Array.from({ length: PETS }, (_, i) => [nameOf(i + 1), nameSearchKey(nameOf(i + 1)), (i + 1) % 2_000 === 0 ? 7 : 1]);
    for (let from = 0; from < PETS; from += 500) {
      const batch = pets.slice(from, from + 500);
      const row = (i: number) => (TEST_DATABASE === 'postgres' ? `($${i * 3 + 1}, $${i * 3 + 2}, $${i * 3 + 3}, 'available')` : "(?, ?, ?, 'available')");
      await dataSource.query(`INSERT INTO pets (name, name_key, category_id, status) VALUES ${batch.map((_, i) => row(i)).join(', ')}`, batch.flat());
    }
    // VACUUM too: a GIN index's fresh entries wait in its pending list, which the planner prices as a scan of it.
    await dataSource.query(TEST_DATABASE === 'postgres' ? 'VACUUM ANALYZE pets' : 'ANALYZE');
  });
  afterAll(() => sut.close());

  /** The plan of a page's statement; on SQLite, with `inCategory` pets in its category (statementFor). */
  async function plan(query: Omit<PetPageQuery, 'afterId' | 'take'>, inCategory = Infinity): Promise<string> {
    const page = { ...query, afterId: 0, take: 21 };
    const dataSource = sut.app.get(DataSource);
    if (TEST_DATABASE === 'sqlite') {
      const { sql, values } = statementFor(sqlitePageStatement(page), inCategory);
      return ((await dataSource.query(`EXPLAIN QUERY PLAN ${sql}`, values)) as Array<{ detail: string }>).map(({ detail }) => detail).join('\n');
    }
    const { sql, values } = postgresPageStatement(page);
    return ((await dataSource.query(`EXPLAIN ${sql}`, values)) as Array<{ 'QUERY PLAN': string }>).map((row) => row['QUERY PLAN']).join('\n');
  }

  it('looks a name search of three characters or more up in the trigram index', async () => {
    expect(await plan({ nameKey: nameSearchKey('XWV') })).toMatch(TEST_DATABASE === 'sqlite' ? /SCAN f VIRTUAL TABLE INDEX/ : /Bitmap Index Scan on pets_name_key_trgm/);
  });

  it('finds the pets of a rare category through the (category_id, id) index', async () => {
    expect(await plan({ categoryId: 7 })).toMatch(/pets_category_id_id/);
  });

  // PostgreSQL's planner weighs the two; SQLite's would always start from the FTS5 table, so the store counts the
  // category first and takes the category's way when it has at most 5,000 pets (pet-page-sql.ts, fewInCategory).
  it('starts a name search in a rare category from the category, the smaller index', async () => {
    expect(await plan({ nameKey: nameSearchKey('Pet'), categoryId: 7 }, 10)).toMatch(
      TEST_DATABASE === 'sqlite' ? /SEARCH p USING INDEX pets_category_id_id \(category_id=\? AND id>\?\)/ : /Index Scan using pets_category_id_id/,
    );
  });

  (TEST_DATABASE === 'sqlite' ? it : it.skip)('starts a name search in a common category from the name index', async () => {
    expect(await plan({ nameKey: nameSearchKey('Pet'), categoryId: 1 }, 5_001)).toMatch(/SCAN f VIRTUAL TABLE INDEX/);
  });

  it.each([
    ['a rare category', { name: 'pet', categoryId: '7', limit: '100' }, [2000, 4000, 6000, 8000, 12000, 14000, 16000, 18000, 20000]],
    ['a rare category after a cursor', { name: 'PET', categoryId: '7', cursor: cursorAfter(15000) }, [16000, 18000, 20000]],
    ['a common category', { name: 'pet 1', categoryId: '1', limit: '5' }, [1, 10, 11, 12, 13]],
    ['a common category after a cursor', { name: 'pet 1', categoryId: '1', limit: '3', cursor: cursorAfter(19) }, [100, 101, 102]],
  ])('answers a name search in %s', async (_, query, ids) => {
    const response = await fetch(`${sut.origin}/v1/pets?${new URLSearchParams(query)}`, { headers: AUTH });
    expect(((await response.json()) as Array<{ id: number }>).map((pet) => pet.id)).toEqual(ids);
  });
});
