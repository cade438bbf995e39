import { type Pet, PET_STATUSES } from '@petstore/contract';
import { AUTH, JSON_AUTH, startApp, type TestApp } from './support/test-app';

// Creates sent at once, with and without Idempotency-Keys (the same key several times at once among them): every
// acknowledged pet is stored once, and then found exactly once by id, in a walk of every page, and in every filter that
// matches it. On whichever database the suite runs.

const PLAIN = 120;
const KEYS = 40;
const SENDS_PER_KEY = 3;

describe('creates at once: each acknowledged pet is stored once and found by every read that matches it', () => {
  let sut: TestApp;
  beforeAll(async () => {
    sut = await startApp();
  });
  afterAll(() => sut.close());

  const create = async (body: object, key?: string) => {
    const headers = key === undefined ? JSON_AUTH : { ...JSON_AUTH, 'idempotency-key': key };
    const response = await fetch(`${sut.origin}/v1/pets`, { method: 'POST', headers, body: JSON.stringify(body) });
    return { status: response.status, body: (await response.json()) as Pet & { code?: string } };
  };
  /** Every pet of a list, by following its Link from the first page. */
  const walk = async (filters: Record<string, string>) => {
    const pets: Pet[] = [];
    let url: string | undefined = `${sut.origin}/v1/pets?${new URLSearchParams({ limit: '100', ...filters })}`;
    while (url) {
      const response: Response = await fetch(url, { headers: AUTH });
      expect(response.status).toBe(200);
      pets.push(...((await response.json()) as Pet[]));
      const next = /^<([^>]+)>; rel="next"$/.exec(response.headers.get('link') ?? '')?.[1];
      url = next && `${sut.origin}${new URL(next).pathname}${new URL(next).search}`;
    }
    return pets;
  };

  it('stores each once, under concurrent creates and concurrent retries of one key', async () => {
    const bodyOf = (index: number) => ({ name: `Concurrent ${index} Rex`, categoryId: 1 + (index % 5), status: PET_STATUSES[index % 3] });
    const sends = [
      ...Array.from({ length: PLAIN }, (_, index) => ({ index, key: undefined as string | undefined })),
      ...Array.from({ length: KEYS * SENDS_PER_KEY }, (_, send) => ({ index: PLAIN + (send % KEYS), key: `concurrent-${send % KEYS}` })),
    ];
    // All at once, in an order that interleaves the keyed sends with the plain ones.
    const answers = await Promise.all(sends.map(async (send) => ({ ...send, ...(await create(bodyOf(send.index), send.key)) })));

    const acknowledged = new Map<number, Pet>();
    for (const { index, key, status, body } of answers) {
      if (key !== undefined && status === 409) {
        expect(body.code).toBe('idempotency_key_in_use');
        continue;
      }
      expect(status).toBe(201);
      expect(body).toEqual({ ...bodyOf(index), id: expect.any(Number) });
      acknowledged.set(body.id, body);
    }
    // One pet per key whatever the answers were; a retry once all is done replays it.
    for (let key = 0; key < KEYS; key++) {
      const replay = await create(bodyOf(PLAIN + key), `concurrent-${key}`);
      expect(replay.status).toBe(201);
      const ids = answers.filter((answer) => answer.key === `concurrent-${key}` && answer.status === 201).map((answer) => answer.body.id);
      expect(ids.every((id) => id === replay.body.id)).toBe(true);
      acknowledged.set(replay.body.id, replay.body);
    }
    expect(acknowledged.size).toBe(PLAIN + KEYS);

    const stored = await sut.storedPets();
    expect(stored).toHaveLength(PLAIN + KEYS);
    expect(stored).toEqual([...acknowledged.values()].sort((one, other) => one.id - other.id));

    // By id, each exactly.
    for (const pet of acknowledged.values()) {
      const response = await fetch(`${sut.origin}/v1/pets/${pet.id}`, { headers: AUTH });
      expect(await response.json()).toEqual(pet);
    }
    // In a walk of every page, once each.
    expect(await walk({})).toEqual(stored);
    // In every filter that matches it: its category and status together and apart, and its own name with them.
    for (const filters of [...new Set(stored.map((pet) => `${pet.categoryId}/${pet.status}`))].map((pair) => pair.split('/'))) {
      const [categoryId, status] = filters;
      const inBoth = stored.filter((pet) => String(pet.categoryId) === categoryId && pet.status === status);
      expect(await walk({ categoryId, status })).toEqual(inBoth);
    }
    for (const pet of acknowledged.values()) {
      const own = { name: pet.name.toUpperCase(), categoryId: String(pet.categoryId), status: String(pet.status) };
      expect(await walk(own)).toEqual([pet]);
    }
  });
});
