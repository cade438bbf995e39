import fc from 'fast-check';
import { LIST_LIMIT, type Pet, PET_STATUSES } from '@petstore/contract';
import { cursorAfter, expectedListPets, isRefusal, type ListPage, matchesFilters } from './support/contract-model';
import { AUTH, JSON_AUTH, startApp, type TestApp } from './support/test-app';

// Concurrency is invisible (behaviour.md, "Data"): many different reads sent at once, alone and beside creates, each
// answer held against a model of the stored pets. On whichever database the suite runs (SQLite, PostgreSQL,
// PgBouncer). The requests are drawn with a fixed seed, so that every run asks the same; FC_SEED changes it.

const SEED = Number(process.env.FC_SEED ?? 5604);
const PUBLIC_BASE_URL = 'https://pets.example.com/v1';
const NAMES = ['Nala', 'Rex', 'T-Rex', 'Straße', 'STRASSE', 'Éloïse', 'Maxine', 'Max', 'Luna', 'Bella', 'Ὀδυσσεύς', 'Ｒｅｘ', 'Mr Whiskers', '100% cat'];
const CATEGORIES = 6;
const SEEDED = 240;

/** Runs `work` over `items` with at most `width` at once; the answers in the order of the items. */
async function atOnce<T, R>(items: readonly T[], width: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
  return results;
}

const newPet = (index: number) => ({
  name: `${NAMES[index % NAMES.length]} ${index % 7 === 0 ? '' : index}`.trim(),
  categoryId: 1 + (index % CATEGORIES),
  status: PET_STATUSES[index % PET_STATUSES.length],
});

/** A piece of a stored name, in some case, or a piece no name has; and the other filters, each present or not. */
const listSearch: fc.Arbitrary<string> = fc
  .record({
    limit: fc.option(fc.integer({ min: LIST_LIMIT.min, max: LIST_LIMIT.max }), { nil: undefined }),
    status: fc.option(fc.constantFrom(...PET_STATUSES), { nil: undefined }),
    name: fc.option(
      fc.oneof(
        fc.tuple(fc.constantFrom(...NAMES), fc.nat(), fc.integer({ min: 1, max: 5 }), fc.boolean()).map(([name, start, length, upper]) => {
          const points = [...name];
          const from = start % points.length;
          const piece = points.slice(from, from + length).join('');
          return upper ? piece.toUpperCase() : piece.toLowerCase();
        }),
        fc.constantFrom('qx', 'zzz', 'nala', 'strasse', 'ÉLO', 'ὀδυσσ'),
      ),
      { nil: undefined },
    ),
    categoryId: fc.option(fc.integer({ min: 1, max: CATEGORIES + 1 }), { nil: undefined }),
    cursor: fc.option(fc.integer({ min: 1, max: SEEDED + 10 }).map(cursorAfter), { nil: undefined }),
  })
  .map((query) => {
    const given = Object.entries(query).flatMap(([key, value]): Array<[string, string]> => (value === undefined || /^\s+$/.test(String(value)) ? [] : [[key, String(value)]]));
    return new URLSearchParams(given).toString();
  });

interface Answer {
  status: number;
  pets: Pet[];
  link: string | null;
}

describe('reads at once: each answer is the one it would get alone', () => {
  let sut: TestApp;
  let seeded: Pet[];
  const list = async (search: string): Promise<Answer> => {
    const response = await fetch(`${sut.origin}/v1/pets?${search}`, { headers: AUTH });
    const body = (await response.json()) as Pet[];
    return { status: response.status, pets: body, link: response.headers.get('link') };
  };
  const create = async (body: object, key?: string) => {
    const headers = key === undefined ? JSON_AUTH : { ...JSON_AUTH, 'idempotency-key': key };
    const response = await fetch(`${sut.origin}/v1/pets`, { method: 'POST', headers, body: JSON.stringify(body) });
    return { status: response.status, body: (await response.json()) as Pet & { code?: string } };
  };

  /** How an answer differs from the model's page, or undefined when it is that page. */
  function differenceFrom(search: string, answer: Answer, stored: readonly Pet[]): string | undefined {
    const expected = expectedListPets(search, stored);
    if (isRefusal(expected)) return `the model refuses ${search}: the generator made a request it should not`;
    const { pets, hasNext, limit, filters } = expected.value;
    const ids = (list: Pet[]) => list.map((pet) => pet.id).join(',');
    if (answer.status !== 200) return `status ${answer.status}`;
    if (JSON.stringify(answer.pets) !== JSON.stringify(pets)) return `ids [${ids(answer.pets)}] where alone [${ids(pets)}]`;
    if (!hasNext) return answer.link === null ? undefined : `a Link (${answer.link}) where no page follows`;
    const next = answer.link && new URL(/^<([^>]+)>; rel="next"$/.exec(answer.link)?.[1] ?? 'about:blank');
    const expectedNext = new URLSearchParams({ limit: String(limit), ...Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== undefined)) });
    expectedNext.set('cursor', cursorAfter(pets[pets.length - 1].id));
    if (!next || [...next.searchParams].sort().join('&') !== [...expectedNext].sort().join('&')) return `Link ${answer.link}, not the next page of ${search}`;
    return undefined;
  }

  beforeAll(async () => {
    sut = await startApp({ env: { PUBLIC_BASE_URL } });
    seeded = await atOnce(Array.from({ length: SEEDED }, (_, index) => index), 8, async (index) => (await create(newPet(index))).body);
    seeded.sort((one, other) => one.id - other.id);
  });
  afterAll(() => sut.close());

  it('answers 3,000 different lists sent 64 at a time as each would be answered alone', async () => {
    const searches = fc.sample(listSearch, { seed: SEED, numRuns: 3000 });
    expect(new Set(searches).size).toBeGreaterThan(2000);
    const answers = await atOnce(searches, 64, list);
    const wrong = searches.flatMap((search, index) => {
      const difference = differenceFrom(search, answers[index], seeded);
      return difference ? [`?${search}: ${difference}`] : [];
    });
    expect({ wrong: wrong.length, first: wrong.slice(0, 5) }).toEqual({ wrong: 0, first: [] });
  });

  it('answers every cursor as the same URL asked alone', async () => {
    const searches = fc.sample(listSearch.filter((search) => search.includes('cursor=')), { seed: SEED + 1, numRuns: 300 });
    const together = await atOnce(searches, 64, list);
    const alone = await atOnce(searches, 1, list);
    expect(together).toEqual(alone);
  });

  it('answers lists beside creates with pets that match their own filters, in id order, missing none acknowledged before', async () => {
    const searches = fc.sample(listSearch, { seed: SEED + 2, numRuns: 1200 });
    /** Pets acknowledged so far, and how many were acknowledged when each list was sent. */
    const acknowledged: Pet[] = [...seeded];
    const creating = atOnce(Array.from({ length: 240 }, (_, index) => SEEDED + index), 8, async (index) => {
      const { status, body } = await create(newPet(index));
      expect(status).toBe(201);
      acknowledged.push(body);
    });
    const problems: string[] = [];
    const returned: Pet[] = [];
    const listing = atOnce(searches, 56, async (search) => {
      const before = [...acknowledged].sort((one, other) => one.id - other.id);
      const answer = await list(search);
      returned.push(...answer.pets);
      const expected = expectedListPets(search, before);
      if (isRefusal(expected) || answer.status !== 200) return void problems.push(`?${search}: status ${answer.status}`);
      const { limit, filters }: ListPage = expected.value;
      const after = new URLSearchParams(search).has('cursor') ? Number(Buffer.from(new URLSearchParams(search).get('cursor') ?? '', 'base64url').toString().slice(3)) : 0;
      const ids = answer.pets.map((pet) => pet.id);
      const last = answer.pets.length === limit ? ids[ids.length - 1] : Number.MAX_SAFE_INTEGER;
      const missing = before.filter((pet) => pet.id > after && pet.id <= last && matchesFilters(pet, filters) && !ids.includes(pet.id));
      if (answer.pets.some((pet) => pet.id <= after || !matchesFilters(pet, filters))) problems.push(`?${search}: a pet outside its filter: [${ids}]`);
      else if (ids.some((id, index) => index > 0 && id <= ids[index - 1]) || ids.length > limit) problems.push(`?${search}: not a page in id order: [${ids}]`);
      else if (missing.length > 0) problems.push(`?${search}: misses ${missing.map((pet) => pet.id)}, acknowledged before it was sent: [${ids}]`);
    });
    await Promise.all([creating, listing]);
    expect({ wrong: problems.length, first: problems.slice(0, 5) }).toEqual({ wrong: 0, first: [] });
    // And every pet a list returned is a stored pet, as stored.
    const stored = new Map((await sut.storedPets()).map((pet) => [pet.id, pet]));
    expect(returned.filter((pet) => JSON.stringify(stored.get(pet.id)) !== JSON.stringify(pet))).toEqual([]);
    expect(acknowledged.filter((pet) => JSON.stringify(stored.get(pet.id)) !== JSON.stringify(pet))).toEqual([]);
  });
});
