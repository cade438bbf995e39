import type { Pet } from '@petstore/contract';
import { expectError } from './support/assertions';
import { AUTH, JSON_AUTH, startApp, type TestApp } from './support/test-app';

describe('createPet (POST /v1/pets)', () => {
  let sut: TestApp;
  const create = (body: unknown, headers: Record<string, string> = JSON_AUTH) =>
    fetch(`${sut.origin}/v1/pets`, {
      method: 'POST',
      headers,
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const storedRow = async (id: number) => (await sut.storedPets()).find((pet) => pet.id === id);
  const rowCount = async () => (await sut.storedPets()).length;

  beforeAll(async () => {
    sut = await startApp();
  });
  afterAll(() => sut.close());

  it('creates a pet: 201, the Pet with id and status, Location, and the stored row', async () => {
    const response = await create({ name: 'Rex', categoryId: 3, status: 'pending' });
    expect(response.status).toBe(201);
    const pet = (await response.json()) as Pet;
    expect(pet).toEqual({ id: expect.any(Number), name: 'Rex', categoryId: 3, status: 'pending' });
    expect(response.headers.get('location')).toBe(`/v1/pets/${pet.id}`);
    expect(await storedRow(pet.id)).toEqual({ id: pet.id, name: 'Rex', categoryId: 3, status: 'pending' });
  });

  it('stores an omitted status as available', async () => {
    const pet = (await (await create({ name: 'Tom', categoryId: 1 })).json()) as Pet;
    expect(pet.status).toBe('available');
    expect((await storedRow(pet.id))?.status).toBe('available');
  });

  it('gives concurrent creates distinct ids and stores each exactly as answered', async () => {
    const bodies = Array.from({ length: 60 }, (_, i) => ({ name: `burst-${i}`, categoryId: 100 + i, status: 'sold' }));
    const pets = await Promise.all(bodies.map(async (body) => (await (await create(body)).json()) as Pet));
    expect(new Set(pets.map((pet) => pet.id)).size).toBe(60);
    pets.forEach((pet, i) => expect(pet).toEqual({ ...bodies[i], id: expect.any(Number) }));
    const stored = await sut.storedPets();
    for (const pet of pets) expect(stored.find((row) => row.id === pet.id)).toEqual(pet);
  });

  it('assigns increasing ids', async () => {
    const a = (await (await create({ name: 'a', categoryId: 1 })).json()) as Pet;
    const b = (await (await create({ name: 'b', categoryId: 1 })).json()) as Pet;
    expect(b.id).toBeGreaterThan(a.id);
  });

  it.each([
    ['one character', 'x'],
    ['100 code points of astral characters', '🐈'.repeat(100)],
    ['surrounding whitespace', '  Rex  '],
    ['combining marks and RTL text', 'Zoë  שלום'],
    ['SQL text', "Robert'); DROP TABLE pets;--"],
  ])('stores and returns a name with %s exactly as sent', async (_label, name) => {
    const pet = (await (await create({ name, categoryId: 1 })).json()) as Pet;
    expect(pet.name).toBe(name);
    expect((await storedRow(pet.id))?.name).toBe(name);
  });

  it('accepts the largest safe categoryId', async () => {
    const pet = (await (await create({ name: 'Max', categoryId: Number.MAX_SAFE_INTEGER })).json()) as Pet;
    expect(pet.categoryId).toBe(9007199254740991);
    expect(await storedRow(pet.id)).toMatchObject({ categoryId: 9007199254740991 });
  });

  describe('validation', () => {
    it.each([
      ['missing name', { categoryId: 1 }, 'name'],
      ['empty name', { name: '', categoryId: 1 }, 'name'],
      ['whitespace-only name', { name: ' \t\n ', categoryId: 1 }, 'name'],
      ['name of 101 code points', { name: '🐈'.repeat(101), categoryId: 1 }, 'name'],
      ['numeric name', { name: 42, categoryId: 1 }, 'name'],
      ['name with a NUL character', { name: 'Re\u0000x', categoryId: 1 }, 'name'],
      ['name with an unpaired surrogate', { name: 'Re\ud800x', categoryId: 1 }, 'name'],
      ['null name', { name: null, categoryId: 1 }, 'name'],
      ['missing categoryId', { name: 'Rex' }, 'categoryId'],
      ['string categoryId', { name: 'Rex', categoryId: '5' }, 'categoryId'],
      ['fractional categoryId', { name: 'Rex', categoryId: 2.5 }, 'categoryId'],
      ['zero categoryId', { name: 'Rex', categoryId: 0 }, 'categoryId'],
      ['negative categoryId', { name: 'Rex', categoryId: -1 }, 'categoryId'],
      ['categoryId beyond 2^53 - 1', { name: 'Rex', categoryId: 9007199254740992 }, 'categoryId'],
      ['unknown status', { name: 'Rex', categoryId: 1, status: 'lost' }, 'status'],
      ['null status', { name: 'Rex', categoryId: 1, status: null }, 'status'],
      ['client-chosen id', { id: 7, name: 'Rex', categoryId: 1 }, 'id'],
      ['unknown property', { name: 'Rex', categoryId: 1, colour: 'brown' }, 'colour'],
      ['property every object inherits', { name: 'Rex', categoryId: 1, hasOwnProperty: 1 }, 'hasOwnProperty'],
      ['property every object inherits, with an object value', { name: 'Rex', categoryId: 1, toString: {} }, 'toString'],
    ])('refuses a %s with 400 naming the field, storing nothing', async (_label, body, field) => {
      const before = await rowCount();
      const message = await expectError(await create(body), 400, 'validation_failed');
      expect(message).toContain(field);
      expect(await rowCount()).toBe(before);
    });

    it('refuses a categoryId written with more digits than a double holds', async () => {
      await expectError(await create('{"name":"Rex","categoryId":9007199254740993}'), 400, 'validation_failed');
    });

    it('reports every invalid field at once', async () => {
      const message = await expectError(await create({ name: '', categoryId: 'x', status: 'y', id: 1 }), 400, 'validation_failed');
      for (const field of ['name', 'categoryId', 'status', 'id']) expect(message).toContain(field);
    });

    it.each([
      ['an array', '[{"name":"Rex","categoryId":1}]'],
      ['a string', '"Rex"'],
      ['a number', '42'],
      ['null', 'null'],
    ])('refuses a body that is %s with 400', async (_label, body) => {
      await expectError(await create(body), 400, 'validation_failed');
    });

    it('refuses unparseable JSON with malformed_json', async () => {
      await expectError(await create('{"name": "Rex",'), 400, 'malformed_json');
    });

    it.each([
      ['with Content-Length', (bytes: Uint8Array) => bytes],
      [
        'chunked',
        (bytes: Uint8Array) =>
          new ReadableStream({
            start(controller) {
              controller.enqueue(bytes);
              controller.close();
            },
          }),
      ],
    ])('refuses a body that is not UTF-8 (%s) with malformed_json, storing nothing', async (_case, wrap) => {
      const bytes = Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff, 0xfe]), Buffer.from('","categoryId":1}')]);
      const before = await rowCount();
      const response = await fetch(`${sut.origin}/v1/pets`, {
        method: 'POST',
        headers: JSON_AUTH,
        body: wrap(new Uint8Array(bytes)),
        duplex: 'half',
      } as RequestInit);
      expect(await expectError(response, 400, 'malformed_json')).toMatch(/UTF-8/);
      expect(await rowCount()).toBe(before);
    });

    it('refuses an empty body with malformed_json', async () => {
      await expectError(await create(''), 400, 'malformed_json');
    });

    it('refuses JSON nested deeper than 32 levels', async () => {
      const deep = `{"name":"Rex","categoryId":1,"x":${'['.repeat(40)}${']'.repeat(40)}}`;
      await expectError(await create(deep), 400, 'validation_failed');
    });

    it('parses JSON nested exactly 32 levels deep (then refuses only the unknown field)', async () => {
      // The body object is level 1, so 31 arrays below it make 32.
      const deepest = `{"name":"Rex","categoryId":1,"x":${'['.repeat(31)}${']'.repeat(31)}}`;
      const message = await expectError(await create(deepest), 400, 'validation_failed');
      expect(message).toContain('"x"');
      expect(message).not.toMatch(/nested/);
      const tooDeep = `{"name":"Rex","categoryId":1,"x":${'['.repeat(32)}${']'.repeat(32)}}`;
      expect(await expectError(await create(tooDeep), 400, 'validation_failed')).toMatch(/nested deeper than 32/);
    });

    it.each([
      ['__proto__', '{"name":"Rex","categoryId":1,"__proto__":{"polluted":true}}'],
      ['constructor.prototype', '{"name":"Rex","categoryId":1,"constructor":{"prototype":{"polluted":true}}}'],
    ])('refuses a %s payload and pollutes nothing', async (_label, body) => {
      await expectError(await create(body), 400, 'validation_failed');
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it('refuses query parameters, naming them', async () => {
      const response = await fetch(`${sut.origin}/v1/pets?dryRun=true`, {
        method: 'POST',
        headers: JSON_AUTH,
        body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
      });
      expect(await expectError(response, 400, 'validation_failed')).toContain('dryRun');
    });

    it('reports a body it cannot read before the query', async () => {
      const response = await fetch(`${sut.origin}/v1/pets?dryRun=true`, { method: 'POST', headers: JSON_AUTH, body: '{"name":' });
      await expectError(response, 400, 'malformed_json');
    });
  });

  describe('media type and size', () => {
    it.each(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonx'])(
      'refuses Content-Type %s with 415 without parsing it',
      async (type) => {
        await expectError(await create('{"name":"Rex","categoryId":1}', { ...AUTH, 'content-type': type }), 415, 'unsupported_media_type');
      },
    );

    it('refuses a missing Content-Type with 415', async () => {
      const response = await fetch(`${sut.origin}/v1/pets`, { method: 'POST', headers: AUTH });
      await expectError(response, 415, 'unsupported_media_type');
    });

    it('accepts application/json with a charset', async () => {
      const response = await create({ name: 'Rex', categoryId: 1 }, { ...AUTH, 'content-type': 'application/json; charset=utf-8' });
      expect(response.status).toBe(201);
    });

    it('refuses a body over 16 KiB with 413', async () => {
      await expectError(await create({ name: 'Rex', categoryId: 1, pad: 'x'.repeat(17 * 1024) }), 413, 'payload_too_large');
    });

    it('accepts a body just under 16 KiB as far as size goes', async () => {
      const body = JSON.stringify({ name: 'Rex', categoryId: 1, pad: '' });
      const padded = body.replace('"pad":""', `"pad":"${'x'.repeat(16 * 1024 - body.length)}"`);
      expect(Buffer.byteLength(padded)).toBe(16 * 1024);
      // Size is fine; the unknown field is what is refused.
      expect(await expectError(await create(padded), 400, 'validation_failed')).toContain('pad');
    });
  });
});
