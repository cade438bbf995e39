import fc from 'fast-check';
import { ERROR_CODES, LIST_LIMIT, PET_STATUSES, type Pet } from '@petstore/contract';
import {
  authCase,
  createPetCase,
  listQuery,
  petIdSegment,
  renderBody,
  renderQuery,
  searchedName,
  seededStatuses,
  type CreatePetCase,
} from './support/arbitraries';
import {
  expectedCreatePet,
  expectedGetPet,
  expectedListPets,
  isAcceptedAuthorization,
  isRefusal,
  type ListPage,
  matchesFilters,
  type Outcome,
  type Refusal,
} from './support/contract-model';
import { AUTH, JSON_AUTH, TEST_KEY, startApp, type TestApp } from './support/test-app';

// Property-based tests: fast-check generates valid and invalid requests from the contract, and every answer is held
// against the oracle in support/contract-model.ts. The seed is fixed so that CI runs the same cases every time;
// FC_SEED and FC_RUNS change them (see docs/testing.md), and FC_PATH with FC_SEED replays a reported counterexample.

function integerFromEnvironment(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  if (!/^-?[0-9]+$/.test(text)) throw new Error(`${name} must be an integer, got ${JSON.stringify(text)}`);
  return Number(text);
}

const SEED = integerFromEnvironment('FC_SEED', 20251126);
/** Cases per property: FC_RUNS for all of them, or defaults sized so that the file takes about a minute per database. */
const runs = (fallback: number) => integerFromEnvironment('FC_RUNS', fallback);
const settings = (numRuns: number): fc.Parameters<unknown> =>
  process.env.FC_PATH ? { seed: SEED, numRuns, path: process.env.FC_PATH, endOnFailure: true } : { seed: SEED, numRuns };
/** Generous: a case takes a few milliseconds, shrinking a failure takes more. */
const timeoutFor = (numRuns: number) => 120_000 + numRuns * 100;

const PUBLIC_BASE_URL = 'https://pets.example.com/v1';

/**
 * Every answer: never 5xx, always JSON, with the expected status; an error is exactly the Error object with the
 * expected code, `status` repeating the HTTP status, and a message that names what is wrong. Returns the parsed body.
 */
async function expectOutcome<T>(response: Response, expected: Outcome<T>): Promise<unknown> {
  const text = await response.text();
  // The whole answer goes into the failure, so that a shrunk counterexample says what the service did.
  const answer = `${response.status} ${response.headers.get('content-type')} ${text.slice(0, 500)}`;
  if (response.status >= 500) throw new Error(`The service failed: ${answer}`);
  if (response.status !== expected.status) throw new Error(`Expected ${summary(expected)}, got ${answer}`);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const body = JSON.parse(text) as unknown;
  if (!isRefusal(expected)) return body;
  const error = body as Record<string, unknown>;
  if (error.code !== expected.code) throw new Error(`Expected ${summary(expected)}, got ${answer}`);
  expect(Object.keys(error).sort()).toEqual(['code', 'message', 'status']);
  expect(error.status).toBe(response.status);
  expect(ERROR_CODES[expected.code]).toBe(response.status);
  expect(error.message).toEqual(expect.stringMatching(/\S/));
  for (const mention of expected.mentions) expect(error.message).toContain(mention);
  return body;
}

const summary = (expected: Outcome<unknown>) =>
  isRefusal(expected) ? `${expected.status} ${expected.code} naming ${JSON.stringify(expected.mentions)}` : String(expected.status);

function expectDeprecationHeaders(response: Response): void {
  expect({
    deprecation: response.headers.get('deprecation'),
    sunset: response.headers.get('sunset'),
    link: response.headers.get('link'),
  }).toEqual({
    deprecation: expect.stringMatching(/^@[0-9]+$/),
    sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
    link: '</v1/pets>; rel="successor-version"',
  });
}

const nextLink = (response: Response) => /^<([^>]+)>; rel="next"$/.exec(response.headers.get('link') ?? '')?.[1];

/** Sends a generated createPet request as bytes, so that no Content-Type is added when the case has none. */
function sendCreatePet(origin: string, request: CreatePetCase, authorization: Record<string, string> = AUTH) {
  const url = `${origin}/v1/pets${renderQuery(request.query)}`;
  const body = renderBody(request.body);
  const headers = request.contentType === undefined ? authorization : { ...authorization, 'content-type': request.contentType };
  const sent = { contentType: request.contentType, body, search: new URL(url).search };
  const bytes = Buffer.from(body);
  if (request.chunks === undefined) return { sent, response: fetch(url, { method: 'POST', headers, body: bytes }) };
  // Pieces cut at any byte, inside a UTF-8 sequence too: the server must decode the body as a whole.
  const size = Math.ceil(bytes.length / request.chunks);
  const pieces = Array.from({ length: request.chunks }, (_, i) => bytes.subarray(i * size, (i + 1) * size));
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const piece of pieces) if (piece.length > 0) controller.enqueue(piece);
      controller.close();
    },
  });
  return { sent, response: fetch(url, { method: 'POST', headers, body: stream, duplex: 'half' }) };
}

describe('properties of the interface (fast-check)', () => {
  describe('createPet', () => {
    let sut: TestApp;
    beforeAll(async () => {
      sut = await startApp();
    });
    afterAll(() => sut.close());

    const numRuns = runs(1500);
    it(
      `answers ${numRuns} generated requests as the contract says, and every 201 reads back exactly (seed ${SEED})`,
      async () => {
        const created: Pet[] = [];
        await fc.assert(
          fc.asyncProperty(createPetCase, async (request) => {
            const { sent, response } = sendCreatePet(sut.origin, request);
            const answer = await response;
            const expected = expectedCreatePet(sent);
            const body = await expectOutcome(answer, expected);
            if (isRefusal(expected)) return;
            const pet = body as Pet;
            expect(pet).toEqual({ ...expected.value, id: expect.any(Number) });
            expect(Number.isSafeInteger(pet.id)).toBe(true);
            expect(pet.id).toBeGreaterThan(created.at(-1)?.id ?? 0);
            expect(answer.headers.get('location')).toBe(`/v1/pets/${pet.id}`);
            const read = await fetch(`${sut.origin}${answer.headers.get('location')}`, { headers: AUTH });
            expect({ status: read.status, body: await read.json() }).toEqual({ status: 200, body: pet });
            created.push(pet);
          }),
          settings(numRuns),
        );
        // Refused requests stored nothing; accepted ones are stored exactly as answered.
        expect(await sut.storedPets()).toEqual(created);
      },
      timeoutFor(numRuns),
    );
  });

  describe('listPets', () => {
    let sut: TestApp;
    /** The model: every stored pet, in id order. */
    const stored: Pet[] = [];
    const createPet = async (name: string, status: Pet['status']) => {
      const body = JSON.stringify({ name, categoryId: 1 + (stored.length % 7), status });
      const pet = (await (await fetch(`${sut.origin}/v1/pets`, { method: 'POST', headers: JSON_AUTH, body })).json()) as Pet;
      stored.push(pet);
      return pet;
    };
    /** A walk that follows `next` links stops here: enough to cross several pages, cheap enough for every case. */
    const MAX_PAGES = 8;

    beforeAll(async () => {
      sut = await startApp({ env: { PUBLIC_BASE_URL } });
      // More than the largest page, so that every limit has a next page somewhere.
      const names = fc.sample(searchedName, { seed: SEED, numRuns: LIST_LIMIT.max + 30 });
      for (const [i, status] of seededStatuses(LIST_LIMIT.max + 30, SEED).entries()) await createPet(names[i], status);
    });
    afterAll(() => sut.close());

    /** One page's invariants, whatever the query: at most `limit` pets, all passing the filters, ids increasing past `after`. */
    function expectPage(pets: Pet[], limit: number, filters: ListPage['filters'], after: number): void {
      expect(pets.length).toBeLessThanOrEqual(limit);
      for (const pet of pets) expect({ pet, matches: matchesFilters(pet, filters) }).toEqual({ pet, matches: true });
      pets.reduce((previous, pet) => {
        expect(pet.id).toBeGreaterThan(previous);
        return pet.id;
      }, after);
    }

    const numRuns = runs(1200);
    it(
      `answers ${numRuns} generated queries as the contract says, and next links page through the model (seed ${SEED})`,
      async () => {
        const cases = fc.record({
          query: listQuery,
          walk: fc.boolean(),
          addDuringWalk: fc.option(fc.tuple(searchedName, fc.constantFrom(...PET_STATUSES)), { nil: undefined, freq: 4 }),
        });
        await fc.assert(
          fc.asyncProperty(cases, async ({ query, walk, addDuringWalk }) => {
            const url = `${sut.origin}/v1/pets${renderQuery(query)}`;
            const expected = expectedListPets(new URL(url).search, stored);
            const response = await fetch(url, { headers: AUTH });
            const body = await expectOutcome(response, expected);
            if (isRefusal(expected)) {
              expect(response.headers.get('link')).toBeNull();
              return;
            }
            const { limit, filters, pets, hasNext } = expected.value;
            expectPage(body as Pet[], limit, filters, 0);
            expect(body).toEqual(pets);
            const next = nextLink(response);
            expect({ next: next !== undefined }).toEqual({ next: hasNext });
            if (next === undefined) return;
            const link = new URL(next);
            expect(`${link.origin}${link.pathname}`).toBe(`${PUBLIC_BASE_URL}/pets`);
            // The link keeps every filter: the same name, and the same category (digits as a number writes them).
            const given = Object.entries(filters).filter(([, value]) => value !== undefined);
            expect([...link.searchParams.keys()].sort()).toEqual(['cursor', 'limit', ...given.map(([name]) => name)].sort());
            expect(Object.fromEntries([...link.searchParams].filter(([name]) => name !== 'cursor'))).toEqual({
              limit: String(limit),
              ...Object.fromEntries(given.map(([name, value]) => [name, name === 'categoryId' ? String(Number(value)) : value])),
            });
            if (!walk) return;

            // Every pet that matched when the walk began, exactly once and in order; one added meanwhile at most once.
            const last = pets[pets.length - 1].id;
            const matching = stored.filter((pet) => pet.id > last && matchesFilters(pet, filters));
            const added = addDuringWalk === undefined ? undefined : await createPet(...addDuringWalk);
            const seen: Pet[] = [];
            let page: string | undefined = next;
            for (let pages = 0; page !== undefined && pages < MAX_PAGES; pages += 1) {
              const answer: Response = await fetch(page.replace(PUBLIC_BASE_URL, `${sut.origin}/v1`), { headers: AUTH });
              expect(answer.status).toBe(200);
              const items = (await answer.json()) as Pet[];
              expectPage(items, limit, filters, seen.at(-1)?.id ?? last);
              seen.push(...items);
              page = nextLink(answer);
            }
            const old = seen.filter((pet) => pet.id !== added?.id);
            expect(old).toEqual(page === undefined ? matching : matching.slice(0, old.length));
            expect(seen.length - old.length).toBeLessThanOrEqual(1);
          }),
          settings(numRuns),
        );
      },
      timeoutFor(numRuns),
    );
  });

  describe('getPet', () => {
    let sut: TestApp;
    const stored = new Map<number, Pet>();

    beforeAll(async () => {
      sut = await startApp();
      for (const [i, status] of seededStatuses(12, SEED).entries()) {
        const body = JSON.stringify({ name: `pet-${i}`, categoryId: 9_007_199_254_740_000 + i, status });
        const pet = (await (await fetch(`${sut.origin}/v1/pets`, { method: 'POST', headers: JSON_AUTH, body })).json()) as Pet;
        stored.set(pet.id, pet);
      }
    });
    afterAll(() => sut.close());

    const numRuns = runs(1500);
    it(
      `answers ${numRuns} generated petIds with 200, 400 or 404 as the contract says, always deprecated (seed ${SEED})`,
      async () => {
        await fc.assert(
          fc.asyncProperty(petIdSegment([...stored.keys()]), async (segment) => {
            const response = await fetch(`${sut.origin}/v1/pets/${segment}`, { headers: AUTH });
            const { outcome, routed } = expectedGetPet(segment, stored);
            const body = await expectOutcome(response, outcome);
            if (!isRefusal(outcome)) expect(body).toEqual(outcome.value);
            if (routed) expectDeprecationHeaders(response);
          }),
          settings(numRuns),
        );
      },
      timeoutFor(numRuns),
    );
  });

  describe('authentication', () => {
    let sut: TestApp;
    let pet: Pet;

    beforeAll(async () => {
      sut = await startApp();
      const body = JSON.stringify({ name: 'Rex', categoryId: 1 });
      pet = (await (await fetch(`${sut.origin}/v1/pets`, { method: 'POST', headers: JSON_AUTH, body })).json()) as Pet;
    });
    afterAll(() => sut.close());

    const numRuns = runs(1000);
    it(
      `answers ${numRuns} generated Authorization values with 401 and WWW-Authenticate unless they carry the key (seed ${SEED})`,
      async () => {
        await fc.assert(
          fc.asyncProperty(authCase(TEST_KEY), async ({ operation, authorization, create }) => {
            const headers: Record<string, string> = authorization === undefined ? {} : { authorization };
            const accepted = isAcceptedAuthorization(authorization, TEST_KEY);
            const unauthorized: Refusal = { status: 401, code: 'unauthorized', mentions: ['Authorization'] };
            let response: Response;
            let expected: Outcome<unknown>;
            if (operation === 'createPet') {
              // Authentication comes first: a stranger's body, however bad or big, is never read.
              const request = sendCreatePet(sut.origin, create, headers);
              response = await request.response;
              expected = accepted ? expectedCreatePet(request.sent) : unauthorized;
            } else if (operation === 'getPet') {
              response = await fetch(`${sut.origin}/v1/pets/${pet.id}`, { headers });
              expected = accepted ? { status: 200, value: pet } : unauthorized;
              expectDeprecationHeaders(response);
            } else {
              response = await fetch(`${sut.origin}/v1/pets?limit=1`, { headers });
              expected = accepted ? { status: 200, value: [pet] } : unauthorized;
            }
            const body = await expectOutcome(response, expected);
            if (!isRefusal(expected) && operation !== 'createPet') expect(body).toEqual(expected.value);
            expect(response.headers.get('www-authenticate')).toBe(accepted ? null : 'Bearer');
          }),
          settings(numRuns),
        );
      },
      timeoutFor(numRuns),
    );
  });
});
