import type { Pet } from '@petstore/contract';
import { expectError } from './support/assertions';
import { AUTH, JSON_AUTH, startApp, type TestApp } from './support/test-app';

describe('getPet (GET /v1/pets/{petId}, deprecated)', () => {
  let sut: TestApp;
  let pet: Pet;
  const get = (petId: string | number, headers: Record<string, string> = AUTH) =>
    fetch(`${sut.origin}/v1/pets/${petId}`, { headers });
  const expectDeprecationHeaders = (response: Response) => {
    expect(response.headers.get('deprecation')).toMatch(/^@\d+$/);
    expect(response.headers.get('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
    expect(response.headers.get('link')).toBe('</v1/pets>; rel="successor-version"');
  };

  beforeAll(async () => {
    sut = await startApp();
    const response = await fetch(`${sut.origin}/v1/pets`, {
      method: 'POST',
      headers: JSON_AUTH,
      body: JSON.stringify({ name: 'Rex', categoryId: 4, status: 'sold' }),
    });
    pet = (await response.json()) as Pet;
  });
  afterAll(() => sut.close());

  it('returns the pet with the deprecation headers', async () => {
    const response = await get(pet.id);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(pet);
    expectDeprecationHeaders(response);
  });

  it('reads a petId with leading zeros as its number, however many', async () => {
    const response = await get(`${'0'.repeat(30)}${pet.id}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(pet);
  });

  it('dates the deprecation before the sunset', async () => {
    const deprecation = Number((await get(pet.id)).headers.get('deprecation')?.slice(1)) * 1000;
    expect(deprecation).toBeLessThan(Date.parse('2030-12-05T00:00:00Z'));
  });

  it.each(['999999', '9007199254740991', '9007199254740992', '9223372036854775807', '0', '-1'])(
    'answers 404 not_found for the absent id %s, never 500',
    async (petId) => {
      const response = await get(petId);
      await expectError(response, 404, 'not_found');
      expectDeprecationHeaders(response);
    },
  );

  it.each(['abc', '1.5', '1e3', '0x10', '9223372036854775808', '99999999999999999999999', '%20', '1%00'])(
    'answers 400 validation_failed naming petId for %j',
    async (petId) => {
      const response = await get(petId);
      expect(await expectError(response, 400, 'validation_failed')).toContain('petId');
      expectDeprecationHeaders(response);
    },
  );

  it('carries the deprecation headers on 401 too', async () => {
    const response = await get(pet.id, {});
    await expectError(response, 401, 'unauthorized');
    expectDeprecationHeaders(response);
  });

  it('refuses query parameters, naming them', async () => {
    expect(await expectError(await get(`${pet.id}?verbose=1`), 400, 'validation_failed')).toContain('verbose');
    expectDeprecationHeaders(await get(`${pet.id}?verbose=1`));
    expect(await expectError(await get(`${pet.id}?verbose=1&__proto__=x`), 400, 'validation_failed')).toBe(
      'Invalid query parameters: unknown query parameter "verbose" is not allowed; unknown query parameter "__proto__" is not allowed.',
    );
  });

  it('refuses query parameters before it looks at the id', async () => {
    expect(await expectError(await get('abc?verbose=1'), 400, 'validation_failed')).toContain('verbose');
  });

  it('carries the deprecation headers on 429 too', async () => {
    const limited = await startApp({ env: { RATE_LIMIT_RPS: '2' } });
    try {
      const responses = await Promise.all(Array.from({ length: 5 }, () => fetch(`${limited.origin}/v1/pets/${pet.id}`, { headers: AUTH })));
      const refused = responses.find((response) => response.status === 429) as Response;
      await expectError(refused, 429, 'rate_limited');
      expectDeprecationHeaders(refused);
    } finally {
      await limited.close();
    }
  });

  it('answers many concurrent reads, of present and absent ids, each with its own pet', async () => {
    const created = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        fetch(`${sut.origin}/v1/pets`, { method: 'POST', headers: JSON_AUTH, body: JSON.stringify({ name: `Many ${i}`, categoryId: i + 1 }) }).then(
          (response) => response.json() as Promise<Pet>,
        ),
      ),
    );
    const absent = Math.max(...created.map((p) => p.id)) + 1000;
    // Read together, three times over and interleaved with absent ids, so that lookups are batched.
    const ids = [...created, ...created, ...created].map((p) => p.id).flatMap((id, i) => (i % 5 === 0 ? [id, absent + i] : [id]));
    const responses = await Promise.all(ids.map((id) => get(id)));
    for (const [i, response] of responses.entries()) {
      const expected = created.find((p) => p.id === ids[i]);
      if (expected) expect({ id: ids[i], body: await response.json() }).toEqual({ id: ids[i], body: expected });
      else await expectError(response, 404, 'not_found');
    }
  });
});
