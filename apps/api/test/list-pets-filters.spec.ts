import type { Pet } from '@petstore/contract';
import { DataSource } from 'typeorm';
import { expectError } from './support/assertions';
import { AUTH, JSON_AUTH, startApp, type TestApp } from './support/test-app';

// listPets' `name` and `categoryId` filters (docs/api.md, "Finding pets by name"), on whichever database the suite
// runs: a name search of three characters or more is served by the trigram index, a shorter one by a scan, so both
// kinds are tried for each rule.
describe('listPets filters: name and categoryId', () => {
  let sut: TestApp;
  const byName = new Map<string, Pet>();
  const names = [
    'Éloïse', 'eloise', 'Straße', 'STRASSE', 'Ｒｅｘ', 'Rex', 'T-Rex the second', 'ﬁdo', 'ΟΔΥΣΣΕΥΣ', 'Zoë',
    '100% cat', '100_cat', 'back\\slash', 'say "hi"', '🐈 Tom', 'Mr Whiskers', 'İpek', 'Ὀδυσσεύς', 'Ευσταθιος',
  ];
  const list = (query: string) => fetch(`${sut.origin}/v1/pets?${query}`, { headers: AUTH });
  const namesOf = async (query: string) => {
    const response = await list(query);
    expect(response.status).toBe(200);
    return ((await response.json()) as Pet[]).map((pet) => pet.name);
  };
  const search = (name: string, more = '') => namesOf(`limit=100&name=${encodeURIComponent(name)}${more}`);

  beforeAll(async () => {
    sut = await startApp({ env: { PUBLIC_BASE_URL: 'https://pets.example.com/v1' } });
    for (const [index, name] of names.entries()) {
      const body = JSON.stringify({ name, categoryId: 1 + (index % 3), status: index % 2 === 0 ? 'available' : 'sold' });
      byName.set(name, (await (await fetch(`${sut.origin}/v1/pets`, { method: 'POST', headers: JSON_AUTH, body })).json()) as Pet);
    }
  });
  afterAll(() => sut.close());

  describe('name: a substring, without case', () => {
    it.each([
      ['ÉLO', ['Éloïse']],
      ['éLoÏ', ['Éloïse']],
      ['elo', ['eloise']],
      ['STRASSE', ['Straße', 'STRASSE']],
      ['straße', ['Straße', 'STRASSE']],
      ['rex', ['Ｒｅｘ', 'Rex', 'T-Rex the second']],
      ['ＲＥＸ', ['Ｒｅｘ', 'Rex', 'T-Rex the second']],
      ['fido', ['ﬁdo']],
      ['odysseus', []],
      ['οδυσσευς', ['ΟΔΥΣΣΕΥΣ']],
      // One sigma: lower-casing writes a final one where the search ends, a medial one where the name goes on.
      ['ΟΔΥΣ', ['ΟΔΥΣΣΕΥΣ']],
      ['ὈΔΥΣ', ['Ὀδυσσεύς']],
      ['ὀδυσσ', ['Ὀδυσσεύς']],
      ['Ευσ', ['ΟΔΥΣΣΕΥΣ', 'Ευσταθιος']],
      ['σ', ['ΟΔΥΣΣΕΥΣ', 'Ὀδυσσεύς', 'Ευσταθιος']],
      ['ς', ['ΟΔΥΣΣΕΥΣ', 'Ὀδυσσεύς', 'Ευσταθιος']],
      ['zoë', ['Zoë']],
      ['İpek', ['İpek']],
      ['ipek', []],
      ['PEK', ['İpek']],
      ['²', []],
    ])('%j finds %j', async (name, expected) => {
      expect(await search(name)).toEqual(expected);
    });

    it('takes LIKE wildcards and FTS5 quotes as the characters they are', async () => {
      expect(await search('0% c')).toEqual(['100% cat']);
      expect(await search('0_c')).toEqual(['100_cat']);
      expect(await search('%')).toEqual(['100% cat']);
      expect(await search('_')).toEqual(['100_cat']);
      expect(await search('k\\s')).toEqual(['back\\slash']);
      expect(await search('\\')).toEqual(['back\\slash']);
      expect(await search('"hi"')).toEqual(['say "hi"']);
      expect(await search('"')).toEqual(['say "hi"']);
      expect(await search('OR')).toEqual([]);
    });

    it.each([
      ['one character', 'x', ['Ｒｅｘ', 'Rex', 'T-Rex the second']],
      ['two characters', 'ÏS', ['Éloïse']],
      ['a space', 'r w', ['Mr Whiskers']],
      ['an emoji', '🐈', ['🐈 Tom']],
      ['an emoji and a space', '🐈 ', ['🐈 Tom']],
      ['a whole name, exactly', 'Mr Whiskers', ['Mr Whiskers']],
    ])('finds names by %s', async (_, name, expected) => {
      expect(await search(name)).toEqual(expected);
    });

    it('answers [] and no Link when no name matches', async () => {
      const response = await list('name=nobody%20here');
      expect(await response.text()).toBe('[]');
      expect(response.headers.get('link')).toBeNull();
    });
  });

  describe('categoryId, and every filter together', () => {
    it('returns only the pets of that category', async () => {
      expect(await namesOf('limit=100&categoryId=2')).toEqual(names.filter((_, index) => index % 3 === 1));
      expect(await namesOf('limit=100&categoryId=9007199254740991')).toEqual([]);
      expect(await namesOf('limit=100&categoryId=0002')).toEqual(names.filter((_, index) => index % 3 === 1));
    });

    it('combines name, category and status', async () => {
      const expected = names.filter((name, index) => index % 3 === 0 && index % 2 === 0 && name.toLowerCase().includes('e'));
      expect(expected.length).toBeGreaterThan(0);
      expect(await search('e', '&categoryId=1&status=available')).toEqual(expected);
    });

    it.each([
      ['a scan', { name: 'e', categoryId: '1' }, ['Éloïse', 'STRASSE', 'T-Rex the second', 'Mr Whiskers']],
      ['the index', { name: 'REX', status: 'sold' }, ['Rex', 'T-Rex the second'].filter((name) => names.indexOf(name) % 2 === 1)],
      ['the index', { name: 'SSE' }, ['Straße', 'STRASSE']],
    ])('pages through a filtered result by its Link, which keeps every filter (name by %s)', async (_, filters: Record<string, string>, expected) => {
      const seen: string[] = [];
      let path: string | undefined = `/v1/pets?${new URLSearchParams({ limit: '1', ...filters })}`;
      while (path) {
        const response: Response = await fetch(`${sut.origin}${path}`, { headers: AUTH });
        seen.push(...((await response.json()) as Pet[]).map((pet) => pet.name));
        const link = response.headers.get('link');
        if (!link) break;
        const url = new URL(/^<([^>]+)>; rel="next"$/.exec(link)?.[1] ?? '');
        expect(Object.fromEntries([...url.searchParams].filter(([key]) => key !== 'cursor'))).toEqual({ limit: '1', ...filters });
        path = `${url.pathname}${url.search}`;
      }
      expect(seen).toEqual(expected);
    });

    it('writes a space in the Link as %20, which every reader takes for a space', async () => {
      const response = await list('limit=1&name=%20t');
      expect(response.headers.get('link')).toMatch(/[?&]name=%20t&cursor=/);
    });

    it('takes a cursor as a place in id order: made under one filter, it goes on after that place under another', async () => {
      const first = await list('limit=3');
      const cursor = new URL(/^<([^>]+)>/.exec(first.headers.get('link') ?? '')?.[1] ?? '').searchParams.get('cursor') as string;
      const third = byName.get(names[2]) as Pet;
      const after = await namesOf(`limit=100&name=e&cursor=${cursor}`);
      const expected = names.filter((name) => (byName.get(name) as Pet).id > third.id && name.normalize('NFKC').toUpperCase().toLowerCase().includes('e'));
      expect(after).toEqual(expected);
    });
  });

  describe('refusals, in the words of the other query errors', () => {
    it.each([
      ['', 'name must not be empty or only whitespace'],
      ['   ', 'name must not be empty or only whitespace'],
      ['x'.repeat(101), 'name must be at most 100 characters (it has 101)'],
      ['a\tb', 'name must not contain control characters (U+0000 to U+001F, U+007F to U+009F)'],
      ['a\nb', 'name must not contain control characters'],
      ['\u0000', 'name must not contain control characters'],
      ['a\u007f', 'name must not contain control characters'],
      ['a\u0085', 'name must not contain control characters'],
    ])('refuses name=%j: %s', async (name, words) => {
      expect(await expectError(await list(`name=${encodeURIComponent(name)}`), 400, 'validation_failed')).toContain(`Invalid query parameters: ${words}`);
    });

    it('takes a name of exactly 100 characters, emoji counted as one each', async () => {
      expect(await search('🐈'.repeat(100))).toEqual([]);
    });

    it('refuses a repeated name', async () => {
      expect(await expectError(await list('name=a&name=b'), 400, 'validation_failed')).toContain('name must be a string');
    });

    it.each(['0', '-1', '2.5', 'abc', '', ' 1', '1e1', '0x10', '9007199254740992', '99999999999999999999', '１'])(
      'refuses categoryId=%j as a whole number from 1 to 2^53 - 1',
      async (categoryId) => {
        const message = await expectError(await list(`categoryId=${encodeURIComponent(categoryId)}`), 400, 'validation_failed');
        expect(message).toContain('categoryId must be a whole number from 1 to 9007199254740991');
      },
    );

    it('names every invalid parameter at once', async () => {
      const message = await expectError(await list('name=&categoryId=x&status=lost&limit=0'), 400, 'validation_failed');
      for (const name of ['name', 'categoryId', 'status', 'limit']) expect(message).toContain(name);
    });
  });

  it('finds, after a restart, the pets an older version inserted without a search key', async () => {
    // As an instance of 1.0 inserts during a rolling upgrade: the columns it knows, no key.
    await sut.app.get(DataSource).query(`INSERT INTO pets (name, category_id, status) VALUES ('Old Writer', 1, 'available')`);
    expect(await search('old writer')).toEqual([]);
    const again = await startApp({ database: sut.database });
    try {
      const found = await fetch(`${again.origin}/v1/pets?name=OLD%20WRITER`, { headers: AUTH });
      expect(await found.json()).toEqual([expect.objectContaining({ name: 'Old Writer' })]);
    } finally {
      await again.close();
    }
  });
});
