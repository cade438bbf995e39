import { LIST_LIMIT, type Pet } from '@petstore/contract';
import { expectError } from './support/assertions';
import { AUTH, JSON_AUTH, startApp, type TestApp } from './support/test-app';

describe('listPets (GET /v1/pets)', () => {
  let sut: TestApp;
  const created: Pet[] = [];
  const list = (query = '') => fetch(`${sut.origin}/v1/pets${query}`, { headers: AUTH });

  beforeAll(async () => {
    sut = await startApp({ env: { PUBLIC_BASE_URL: 'https://pets.example.com/v1' } });
    const statuses = ['available', 'pending', 'sold'];
    for (let i = 0; i < 45; i += 1) {
      const body = JSON.stringify({ name: `pet-${i}`, categoryId: 1 + (i % 3), status: statuses[i % 3] });
      const response = await fetch(`${sut.origin}/v1/pets`, { method: 'POST', headers: JSON_AUTH, body });
      created.push((await response.json()) as Pet);
    }
  });
  afterAll(() => sut.close());

  it('returns a bare array ordered by id, 20 by default', async () => {
    const response = await list();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const pets = (await response.json()) as Pet[];
    expect(Array.isArray(pets)).toBe(true);
    expect(pets).toHaveLength(LIST_LIMIT.default);
    expect(pets).toEqual(created.slice(0, 20));
  });

  it('honours limit at both bounds', async () => {
    expect(await (await list('?limit=1')).json()).toEqual(created.slice(0, 1));
    expect(await (await list('?limit=100')).json()).toEqual(created);
  });

  it('filters by status', async () => {
    const pets = (await (await list('?status=sold&limit=100')).json()) as Pet[];
    expect(pets).toEqual(created.filter((p) => p.status === 'sold'));
  });

  it('answers [] when nothing matches', async () => {
    const fresh = await startApp();
    try {
      const response = await fetch(`${fresh.origin}/v1/pets?status=pending`, { headers: AUTH });
      expect(response.status).toBe(200);
      expect(await response.text()).toBe('[]');
      expect(response.headers.get('link')).toBeNull();
    } finally {
      await fresh.close();
    }
  });

  it.each(['0', '101', '-1', '2.5', 'abc', '', '1e1', '0x10', ' 5'])('refuses limit=%j naming limit', async (limit) => {
    const message = await expectError(await list(`?limit=${encodeURIComponent(limit)}`), 400, 'validation_failed');
    expect(message).toContain('limit');
  });

  it('reads a limit with leading zeros as its number', async () => {
    expect(await (await list(`?limit=${'0'.repeat(20)}5`)).json()).toEqual(created.slice(0, 5));
  });

  it('refuses a repeated limit', async () => {
    await expectError(await list('?limit=1&limit=2'), 400, 'validation_failed');
  });

  it.each(['unknown', 'SOLD', ''])('refuses status=%j naming status', async (status) => {
    const message = await expectError(await list(`?status=${status}`), 400, 'validation_failed');
    expect(message).toContain('status');
  });

  it('refuses an unknown query parameter, naming it', async () => {
    const message = await expectError(await list('?staus=sold'), 400, 'validation_failed');
    expect(message).toContain('staus');
  });

  it.each(['toString', 'hasOwnProperty', 'valueOf'])('refuses the unknown query parameter %s, which every object inherits', async (name) => {
    expect(await expectError(await list(`?${name}=1`), 400, 'validation_failed')).toContain(name);
  });

  it('reports every invalid parameter at once', async () => {
    const message = await expectError(await list('?limit=0&status=x&foo=1'), 400, 'validation_failed');
    expect(message).toContain('limit');
    expect(message).toContain('status');
    expect(message).toContain('foo');
  });

  describe('pagination', () => {
    const nextLink = (response: Response) => {
      const link = response.headers.get('link');
      const match = link && /^<([^>]+)>; rel="next"$/.exec(link);
      return match ? match[1] : undefined;
    };

    it('links the next page from PUBLIC_BASE_URL, keeping limit and status, never from Host', async () => {
      const response = await fetch(`${sut.origin}/v1/pets?limit=5&status=pending`, {
        headers: { ...AUTH, host: 'evil.example.net' },
      });
      const next = nextLink(response);
      expect(next).toBeDefined();
      const url = new URL(next as string);
      expect(url.origin + url.pathname).toBe('https://pets.example.com/v1/pets');
      expect(url.searchParams.get('limit')).toBe('5');
      expect(url.searchParams.get('status')).toBe('pending');
      expect(url.searchParams.get('cursor')).toEqual(expect.any(String));
    });

    it('visits every pet exactly once by following next links, and omits the link on the last page', async () => {
      const seen: Pet[] = [];
      let path: string | undefined = '/v1/pets?limit=7';
      let pages = 0;
      while (path) {
        const response: Response = await fetch(`${sut.origin}${path}`, { headers: AUTH });
        expect(response.status).toBe(200);
        seen.push(...((await response.json()) as Pet[]));
        const next = nextLink(response);
        path = next ? next.replace('https://pets.example.com', '') : undefined;
        pages += 1;
      }
      expect(pages).toBe(Math.ceil(created.length / 7));
      expect(seen).toEqual(created);
    });

    it('sees a pet added during the walk at most once', async () => {
      const first = await list('?limit=10');
      const cursor = new URL(nextLink(first) as string).searchParams.get('cursor') as string;
      const added = (await (
        await fetch(`${sut.origin}/v1/pets`, { method: 'POST', headers: JSON_AUTH, body: '{"name":"late","categoryId":9}' })
      ).json()) as Pet;
      const rest = (await (await list(`?limit=100&cursor=${cursor}`)).json()) as Pet[];
      expect(rest.filter((p) => p.id === added.id)).toHaveLength(1);
      expect(rest[0].id).toBe(created[10].id);
    });

    it.each(['???', 'abc', Buffer.from('p1.-5').toString('base64url'), Buffer.from('x').toString('base64url')])(
      'refuses the malformed cursor %j naming cursor',
      async (cursor) => {
        const message = await expectError(await list(`?cursor=${encodeURIComponent(cursor)}`), 400, 'validation_failed');
        expect(message).toContain('cursor');
      },
    );
  });
});

// Requests for the same page that wait together share one query (database/batching/batched-lookup.ts): a request must never be
// answered from a query that began before it arrived.
describe('listPets while the same page is read concurrently', () => {
  let sut: TestApp;
  beforeAll(async () => {
    sut = await startApp();
  });
  afterAll(() => sut.close());

  it('shows a pet created just before the request, however many identical requests are in flight', async () => {
    const page = () => fetch(`${sut.origin}/v1/pets?status=pending&limit=100`, { headers: AUTH });
    let reading = true;
    const readers = Array.from({ length: 16 }, async () => {
      while (reading) await (await page()).arrayBuffer();
    });
    try {
      for (let i = 0; i < 25; i += 1) {
        const response = await fetch(`${sut.origin}/v1/pets`, {
          method: 'POST',
          headers: JSON_AUTH,
          body: JSON.stringify({ name: `fresh-${i}`, categoryId: 1, status: 'pending' }),
        });
        const pet = (await response.json()) as Pet;
        expect(((await (await page()).json()) as Pet[]).map((p) => p.id)).toContain(pet.id);
      }
    } finally {
      reading = false;
      await Promise.all(readers);
    }
  });
});
