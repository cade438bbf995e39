import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { compareContracts } from './api-gate';
import { latestReleaseFile, readDocument, RELEASES_DIRECTORY } from './documents';
import type { Finding } from './finding';
import { formatReport } from './report';
import { committed, createPet, gate, gateBetween, getPet, listPets, renameKey, schemas, type Seed } from './testing/seeds';

// The tables are exported so that another diff tool can be tried on the same corpus (docs/releasing.md).

/** Each kind of break the gate must refuse, and who notices it: openapi-diff (its code) or one of our rules. */
export const BREAKING: Array<[kind: string, seed: Seed, expected: Partial<Finding>]> = [
  ['an operation removed', (d) => delete d.paths['/pets'].post, { by: 'method.remove', where: 'POST /pets' }],
  ['a path removed', (d) => delete d.paths['/pets/{petId}'], { by: 'path.remove', where: '/pets/{petId}' }],
  ['a response removed', (d) => delete createPet(d).responses['409'], { by: 'response.status-code.remove', where: 'POST /pets response 409' }],
  ['a status code changed', (d) => renameKey(createPet(d).responses, '201', '200'), { by: 'response.status-code.remove', where: 'POST /pets response 201' }],
  [
    'a response field removed',
    (d) => {
      delete schemas(d).Pet.properties.categoryId;
      schemas(d).Pet.required = ['name', 'id'];
    },
    { by: 'response.body.scope.add', where: 'GET /pets/{petId} response 200' },
  ],
  ['a response field made optional', (d) => (schemas(d).Pet.required = ['name', 'categoryId']), { by: 'response.body.scope.add', where: 'POST /pets response 201' }],
  ['a response field widened (3.1 type list)', (d) => (schemas(d).Pet.properties.id.type = ['integer', 'string']), { by: 'response.body.scope.add', where: 'GET /pets response 200' }],
  ['a response bound widened', (d) => (schemas(d).Pet.properties.name.maxLength = 200), { by: 'response.body.scope.add', where: 'GET /pets/{petId} response 200' }],
  ['a response field made nullable (3.1)', (d) => (schemas(d).Pet.properties.name.type = ['string', 'null']), { by: 'rule:schema-keywords', what: 'name: made nullable' }],
  ['a field of a webhook removed', (d) => delete schemas(d).PetCreatedEvent.properties.timestamp, { by: 'response.body.scope.add', where: 'webhook pet.created response 200' }],
  ['an enum value removed', (d) => (schemas(d).PetStatus.enum = ['available', 'pending']), { by: 'rule:schema-keywords', what: 'status: enum value "sold" removed' }],
  ['an enum value added to a response', (d) => schemas(d).ErrorCode.enum.push('teapot'), { by: 'rule:schema-keywords', what: 'code: enum value "teapot" added to a response' }],
  [
    'a request enum narrowed',
    (d) => (listPets(d).parameters[1].schema = { type: 'string', enum: ['available', 'pending'] }),
    { by: 'rule:schema-keywords', where: 'GET /pets parameters (application/json)', what: 'query status: enum value "sold" removed' },
  ],
  ['a request field made required', (d) => schemas(d).NewPet.required.push('status'), { by: 'request.body.scope.remove', where: 'POST /pets request body' }],
  ['a request maxLength lowered', (d) => (schemas(d).NewPet.properties.name.maxLength = 50), { by: 'request.body.scope.remove', where: 'POST /pets request body' }],
  ["a request field's type changed", (d) => (schemas(d).NewPet.properties.categoryId.type = 'string'), { by: 'request.body.scope.remove', where: 'POST /pets request body' }],
  ['a request pattern added', (d) => (schemas(d).NewPet.properties.name.pattern = '^[A-Za-z]+$'), { by: 'rule:schema-keywords', what: 'name: pattern none → "^[A-Za-z]+$"' }],
  [
    'a request media type changed',
    (d) => renameKey(createPet(d).requestBody.content, 'application/json', 'application/merge-patch+json'),
    { by: 'rule:media-type', what: 'media type application/json no longer accepted' },
  ],
  [
    'a response media type changed',
    (d) => renameKey(getPet(d).responses['200'].content, 'application/json', 'application/hal+json'),
    { by: 'rule:media-type', where: 'GET /pets/{petId} response 200', what: 'media type application/json no longer answered' },
  ],
  [
    'a parameter added as required',
    (d) => listPets(d).parameters.push({ name: 'sort', in: 'query', required: true, schema: { type: 'string', maxLength: 10 } }),
    { by: 'request.body.scope.remove', where: 'GET /pets parameters' },
  ],
  [
    'a required header added to an operation',
    (d) => (getPet(d).parameters = [...getPet(d).parameters, { name: 'X-Tenant', in: 'header', required: true, schema: { type: 'string' } }]),
    { by: 'request.body.scope.remove', where: 'GET /pets/{petId} parameters' },
  ],
  [
    'a required request body added',
    (d) => (getPet(d).requestBody = { required: true, content: { 'application/json': { schema: { type: 'object' } } } }),
    { by: 'rule:request-body', where: 'GET /pets/{petId} request body' },
  ],
  [
    'a response header removed',
    (d) => delete createPet(d).responses['201'].headers.Location,
    { by: 'response.body.scope.add', where: 'POST /pets response 201 headers', what: 'may hold what the release never sent: location removed' },
  ],
  ['a parameter removed', (d) => listPets(d).parameters.pop(), { by: 'request.body.scope.remove', where: 'GET /pets parameters' }],
  ['a parameter made required', (d) => (listPets(d).parameters[0].required = true), { by: 'request.body.scope.remove', where: 'GET /pets parameters' }],
  ['a parameter narrowed', (d) => (listPets(d).parameters[0].schema.maximum = 50), { by: 'request.body.scope.remove', where: 'GET /pets parameters' }],
  [
    'a response field made nullable through a {type: null} branch',
    (d) => (schemas(d).Pet.properties.name = { anyOf: [schemas(d).Pet.properties.name, { type: 'null' }] }),
    { by: 'rule:schema-keywords', where: 'GET /pets/{petId} response 200 (application/json)', what: 'name: made nullable' },
  ],
  [
    'a query enum narrowed through an anyOf of enums',
    (d) => (listPets(d).parameters[1].schema = { anyOf: [{ type: 'string', enum: ['available'] }, { type: 'string', enum: ['pending'] }] }),
    { by: 'rule:schema-keywords', where: 'GET /pets parameters (application/json)', what: 'query status: enum value "sold" removed' },
  ],
  [
    'a request enum narrowed through a oneOf of consts',
    (d) => (schemas(d).NewPet.properties.status = { default: 'available', oneOf: [{ const: 'available' }, { const: 'pending' }] }),
    { by: 'rule:schema-keywords', where: 'POST /pets request body (application/json)', what: 'status: enum value "sold" removed' },
  ],
  [
    'a response enum widened through an anyOf of a $ref and a const',
    (d) => (schemas(d).Pet.properties.status = { anyOf: [{ $ref: '#/components/schemas/PetStatus' }, { const: 'lost' }] }),
    { by: 'rule:schema-keywords', what: 'status: enum value "lost" added to a response' },
  ],
  // Security: a client that authenticated as the release asked is refused.
  ['a scope required of every operation', (d) => (d.security = [{ bearer: ['pets:admin'] }]), { by: 'rule:security', where: 'GET /pets/{petId}' }],
  ['a scope required of one operation', (d) => (createPet(d).security = [{ bearer: ['pets:write'] }]), { by: 'rule:security', where: 'POST /pets' }],
  [
    'a second scheme required, together with the first',
    (d) => {
      d.components.securitySchemes.tenant = { type: 'apiKey', in: 'header', name: 'X-Tenant-Key' };
      listPets(d).security = [{ bearer: [], tenant: [] }];
    },
    { by: 'rule:security', where: 'GET /pets', what: expect.stringContaining('now needs bearer + tenant') },
  ],
  [
    'another scheme instead of the first',
    (d) => {
      d.components.securitySchemes.apiKey = { type: 'apiKey', in: 'header', name: 'X-Api-Key' };
      d.security = [{ apiKey: [] }];
    },
    { by: 'rule:security', where: 'POST /pets' },
  ],
  [
    "the document's requirement moved onto each operation, one of them stricter",
    (d) => {
      delete d.security;
      listPets(d).security = [{ bearer: [] }];
      getPet(d).security = [{ bearer: [] }];
      createPet(d).security = [{ bearer: ['pets:write'] }];
    },
    { by: 'rule:security', where: 'POST /pets' },
  ],
  ['the credential moved (bearer header to a query key)', (d) => (d.components.securitySchemes.bearer = { type: 'apiKey', in: 'query', name: 'key' }), { by: 'rule:security', where: 'GET /pets' }],
  // Defaults: a client that leaves the field out gets other behaviour.
  ["a request field's default changed", (d) => (schemas(d).NewPet.properties.status.default = 'pending'), { by: 'rule:schema-keywords', what: 'status: default "available" → "pending"' }],
  [
    "a query parameter's default changed",
    (d) => (listPets(d).parameters[0].schema.default = 50),
    { by: 'rule:schema-keywords', where: 'GET /pets parameters (application/json)', what: expect.stringMatching(/^query limit: default \d+ → 50$/) },
  ],
  ["a request field's default dropped", (d) => delete schemas(d).NewPet.properties.status.default, { by: 'rule:schema-keywords', what: 'status: default "available" dropped' }],
  // Path parameters by name: generated clients with named arguments change their signatures.
  [
    'a path parameter renamed, in the template and its parameter',
    (d) => {
      getPet(d).parameters[0].name = 'id';
      renameKey(d.paths, '/pets/{petId}', '/pets/{id}');
    },
    { by: 'rule:path-parameter', where: 'GET /pets/{petId}', what: 'path parameter renamed: petId → id' },
  ],
  [
    'a path parameter renamed while moved to the path item',
    (d) => {
      const [parameter] = getPet(d).parameters.splice(0, 1);
      renameKey(d.paths, '/pets/{petId}', '/pets/{pet_id}');
      d.paths['/pets/{pet_id}'].parameters = [{ ...parameter, name: 'pet_id' }];
    },
    { by: 'rule:path-parameter', where: 'GET /pets/{petId}', what: 'path parameter renamed: petId → pet_id' },
  ],
];

/** Additive changes: a minor version, never refused. */
export const ADDITIVE: Array<[kind: string, seed: Seed, expected: Partial<Finding>]> = [
  ['a new optional request field', (d) => (schemas(d).NewPet.properties.tag = { type: 'string', maxLength: 20 }), { by: 'request.body.scope.add' }],
  ['a new optional response field', (d) => (schemas(d).Pet.properties.tag = { type: 'string', maxLength: 20 }), { by: 'response.body.scope.remove' }],
  ['a new operation', (d) => (d.paths['/pets/{petId}'].delete = { operationId: 'deletePet', responses: { 204: { description: 'Deleted.' } } }), { by: 'method.add' }],
  ['a new optional parameter', (d) => listPets(d).parameters.push({ name: 'sort', in: 'query', schema: { type: 'string', maxLength: 10 } }), { by: 'request.body.scope.add' }],
  ['a request bound widened', (d) => (schemas(d).NewPet.properties.name.maxLength = 200), { by: 'request.body.scope.add' }],
  ['a new status code', (d) => (getPet(d).responses['410'] = getPet(d).responses['404']), { by: 'response.status-code.add' }],
  ['a new response header', (d) => (getPet(d).responses['200'].headers['X-Cache'] = { schema: { type: 'string' } }), { by: 'response.body.scope.remove', where: 'GET /pets/{petId} response 200 headers' }],
  [
    'a request enum widened through an anyOf of a $ref and a const',
    (d) => (schemas(d).NewPet.properties.status = { default: 'available', anyOf: [{ $ref: '#/components/schemas/PetStatus' }, { const: 'lost' }] }),
    { by: 'rule:schema-keywords', what: 'status: enum value "lost" added' },
  ],
  [
    'a request field made nullable through a {type: null} branch',
    (d) => (schemas(d).NewPet.properties.name = { oneOf: [schemas(d).NewPet.properties.name, { type: 'null' }] }),
    { by: 'rule:schema-keywords', what: 'name: made nullable' },
  ],
  ["a default declared for a query parameter that had none", (d) => (listPets(d).parameters[1].schema.default = 'available'), { by: 'rule:schema-keywords', what: 'query status: default "available" declared' }],
  ['security dropped from one operation', (d) => (getPet(d).security = []), { by: 'rule:security', what: 'security: bearer → no authentication' }],
  [
    'an alternative way to authenticate',
    (d) => {
      d.components.securitySchemes.apiKey = { type: 'apiKey', in: 'header', name: 'X-Api-Key' };
      d.security = [{ bearer: [] }, { apiKey: [] }];
    },
    { by: 'rule:security', where: 'GET /pets' },
  ],
  ['a media type added to a request', (d) => (createPet(d).requestBody.content['application/merge-patch+json'] = createPet(d).requestBody.content['application/json']), { by: 'rule:media-type' }],
  ['a request body made optional', (d) => (createPet(d).requestBody.required = false), { by: 'rule:request-body', what: 'request body made optional' }],
  // Semver: deprecating part of a public API is a minor version.
  ['an operation deprecated', (d) => (listPets(d).deprecated = true), { by: 'rule:deprecated', where: 'GET /pets', what: 'deprecated' }],
  ['a parameter deprecated', (d) => (listPets(d).parameters[1].deprecated = true), { by: 'rule:schema-keywords', where: 'GET /pets parameters (application/json)', what: 'query status: deprecated' }],
  ['a response field deprecated', (d) => (schemas(d).Pet.properties.categoryId.deprecated = true), { by: 'rule:schema-keywords', what: 'categoryId: deprecated' }],
];

/** Rewrites that change nothing a client sees. */
export const EQUIVALENT_REWRITES: Array<[kind: string, seed: Seed]> = [
  [
    "a one-member allOf around a $ref replaced by the $ref (how @nestjs/swagger may write a field's enum)",
    (d) => {
      const status = schemas(d).NewPet.properties.status;
      delete status.allOf;
      status.$ref = '#/components/schemas/PetStatus';
    },
  ],
  [
    'a request body split into an allOf of two objects',
    (d) => {
      const { properties, required, ...rest } = schemas(d).NewPet;
      const { name, ...others } = properties;
      const part = (names: string[]) => required.filter((field: string) => names.includes(field));
      schemas(d).NewPet = {
        ...rest,
        allOf: [
          { type: 'object', properties: { name }, required: part(['name']) },
          { type: 'object', properties: others, required: part(Object.keys(others)) },
        ],
      };
    },
  ],
  ['a single-valued query parameter given another style that writes it the same', (d) => Object.assign(listPets(d).parameters[0], { style: 'form', explode: false })],
  [
    'a path parameter moved from the operation to its path item, its name kept',
    (d) => (d.paths['/pets/{petId}'].parameters = getPet(d).parameters.splice(0, 1)),
  ],
  [
    'a $ref written out in place',
    (d) => {
      const status = schemas(d).NewPet.properties.status;
      delete status.allOf;
      Object.assign(status, schemas(d).PetStatus);
    },
  ],
];

describe('api-gate', () => {
  it.each(BREAKING)('refuses %s', async (_kind, seed, expected) => {
    const report = await gate(seed);
    expect(report).toMatchObject({ change: 'major', refused: true });
    expect(report.breaking).toContainEqual(expect.objectContaining(expected));
  });

  it.each(ADDITIVE)('passes %s as a minor change', async (_kind, seed, expected) => {
    const report = await gate(seed);
    expect(report).toMatchObject({ change: 'minor', refused: false, breaking: [] });
    expect(report.minor).toContainEqual(expect.objectContaining(expected));
  });

  it('passes a breaking change that comes with a new major version', async () => {
    const report = await gate((d) => delete d.paths['/pets/{petId}'], '2.0.0');
    const latest = (readDocument(latestReleaseFile()).info as { version: string }).version;
    expect(report).toMatchObject({ change: 'major', refused: false, releasedVersion: latest, currentVersion: '2.0.0' });
  });

  // A client generated from the release writes `?tags=a&tags=b`; the service now reads `a,b` or `a|b`.
  const tagsQuery: Seed = (d) => listPets(d).parameters.push({ name: 'tags', in: 'query', schema: { type: 'array', items: { type: 'string' } } });
  it.each<[string, Seed, string]>([
    ['exploded no more', (d) => (listPets(d).parameters.at(-1).explode = false), 'query tags: sent as form, exploded → form'],
    ['pipe-delimited', (d) => Object.assign(listPets(d).parameters.at(-1), { style: 'pipeDelimited', explode: false }), 'query tags: sent as form, exploded → pipeDelimited'],
    ['as JSON content', (d) => Object.assign(listPets(d).parameters.at(-1), { schema: undefined, content: { 'application/json': { schema: { type: 'array' } } } }), 'query tags: sent as form, exploded → as application/json'],
  ])('refuses an array query parameter serialized another way: %s', async (_kind, change, what) => {
    const report = await gateBetween(tagsQuery, change);
    expect(report.breaking).toContainEqual({ severity: 'breaking', where: 'GET /pets parameters', what, by: 'rule:parameter-style' });
  });

  it('refuses a path parameter written in matrix style (;petId=42), which changes even a single value', async () => {
    const report = await gate((d) => (getPet(d).parameters[0].style = 'matrix'));
    expect(report.breaking).toContainEqual(expect.objectContaining({ by: 'rule:parameter-style', what: 'path #1: sent as simple → matrix' }));
  });

  it('names each break, and what the release must do, in its report', async () => {
    const report = await gate((d) => {
      delete createPet(d).responses['409'];
      schemas(d).PetStatus.enum = ['available', 'pending'];
    });
    const text = formatReport(report, 'releases/1.0.0.json', 'openapi.json');
    expect(text).toContain('BREAKING   POST /pets response 409: status code removed [response.status-code.remove]');
    expect(text).toContain('BREAKING   GET /pets response 200 (application/json): [].status: enum value "sold" removed [rule:schema-keywords]');
    expect(text).toMatch(/REFUSED: \d+ breaking change\(s\)/);
  });

  it('reads security as what a client must send: the same requirement, spelled on each operation or in other words, is no change', async () => {
    const report = await gate((d) => {
      const requirement = d.security;
      delete d.security;
      for (const item of Object.values(d.paths) as Array<Record<string, { security?: unknown }>>) {
        for (const operation of Object.values(item)) operation.security = requirement;
      }
      d.components.securitySchemes.bearer.description = 'A key.';
    });
    expect([...report.breaking, ...report.minor].filter(({ by }) => by === 'rule:security')).toEqual([]);
    expect(report.breaking).toEqual([]);
  });

  it.each(EQUIVALENT_REWRITES)('finds no change in an equivalent rewrite: %s', async (_kind, seed) => {
    await expect(gate(seed)).resolves.toMatchObject({ change: 'none', breaking: [], minor: [] });
  });

  it('finds nothing between a document and itself', async () => {
    await expect(gate(() => undefined)).resolves.toMatchObject({ change: 'none', refused: false, breaking: [], minor: [] });
  });

  // Each release against the one before it, as released: the change each version number claims, written out here.
  // A release cut later adds its row (the last test fails until it does).
  const RELEASED: Array<[from: string, to: string, change: 'none' | 'minor' | 'major']> = [
    ['1.0.0', '1.1.0', 'minor'],
    ['1.1.0', '1.1.1', 'none'],
    ['1.1.1', '1.1.2', 'none'],
    ['1.1.2', '1.1.3', 'none'],
    ['1.1.3', '1.2.0', 'minor'],
  ];
  const released = (version: string) => readDocument(join(RELEASES_DIRECTORY, `${version}.json`));

  it.each(RELEASED)('calls release %s → %s: %s', async (from, to, change) => {
    await expect(compareContracts(released(from), released(to))).resolves.toMatchObject({ change, refused: false, breaking: [] });
  });

  it('calls 1.0.0 → 1.1.0 minor for the filters by name and by category that 1.1.0 added to listPets', async () => {
    const report = await compareContracts(released('1.0.0'), released('1.1.0'));
    expect(report.minor).toEqual([
      { severity: 'minor', where: 'GET /pets parameters', what: 'accepts more than the release did: query name added; query categoryId added', by: 'request.body.scope.add' },
    ]);
  });

  it('calls 1.1.3 → 1.2.0 minor for the event stream that 1.2.0 added', async () => {
    const report = await compareContracts(released('1.1.3'), released('1.2.0'));
    expect(report.minor.map(({ where }) => where)).toContain('/events');
    expect(report.breaking).toEqual([]);
  });

  it('knows every released document', () => {
    const files = readdirSync(RELEASES_DIRECTORY).filter((file) => /^\d+\.\d+\.\d+\.json$/.test(file));
    expect(files.map((file) => file.replace(/\.json$/, '')).sort()).toEqual(['1.0.0', ...RELEASED.map(([, to]) => to)].sort());
  });

  // What `npm run api-gate` runs, here so that `npm test` (and CI) runs it on every change.
  it('passes the committed document against the latest release', async () => {
    const report = await compareContracts(readDocument(latestReleaseFile()), committed);
    expect(report.breaking).toEqual([]);
    expect(report.refused).toBe(false);
  });
});
