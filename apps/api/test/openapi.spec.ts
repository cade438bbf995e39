import { API_VERSION, CURSOR_LENGTH, ERROR_CODES, ERROR_MESSAGE_MAX_LENGTH, fieldEntries, LIST_LIMIT, MAX_ID, NAME_LENGTH, OPERATION_SCOPES, type OperationId, PET_FIELDS, PET_FILTERS, SCOPES, sentFieldEntries } from '@petstore/contract';
import { PET_RESPONSE_SCHEMA } from '../src/app/pets/pet-response-schemas';
import { startApp, type TestApp } from './support/test-app';

// The served document is plain JSON; these shapes name only what the assertions read.
interface OasSchema {
  type?: string;
  format?: string;
  enum?: string[];
  $ref?: string;
  allOf?: OasSchema[];
  items?: OasSchema;
  properties?: Record<string, OasSchema>;
  required?: string[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  pattern?: string;
  default?: unknown;
}
interface OasParameter {
  name: string;
  in: string;
  description?: string;
  required?: boolean;
  example?: unknown;
  schema: OasSchema & { example?: unknown; default?: unknown };
}
interface OasResponse {
  description?: string;
  headers?: Record<string, { schema: OasSchema }>;
  content?: Record<string, { schema: OasSchema; examples?: Record<string, { value: { code: string; message: string; status: number } }> }>;
}
interface OasOperation {
  operationId: string;
  summary?: string;
  deprecated?: boolean;
  description?: string;
  parameters?: OasParameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema: OasSchema; example?: unknown }> };
  responses: Record<string, OasResponse>;
  security?: Array<Record<string, string[]>>;
}
interface OasDocument {
  openapi: string;
  info: { version: string };
  servers: Array<{ url: string; description?: string; 'x-internal'?: boolean }>;
  paths: Record<string, Record<string, OasOperation>>;
  components: {
    schemas: Record<string, OasSchema>;
    securitySchemes: Record<string, { type: string; scheme?: string; bearerFormat?: string; description?: string }>;
  };
  security: Array<Record<string, string[]>>;
  webhooks: Record<string, Record<string, OasOperation>>;
  'x-webhooks'?: unknown;
}

const PRODUCTION = 'https://api.example.com/v1';
const STAGING = 'https://staging.example.com/v1';
const ref = (name: string) => `#/components/schemas/${name}`;
// A property that names another schema is `{ $ref }`, or `{ allOf: [{ $ref }] }` when it adds a description.
const refOf = (schema: OasSchema) => schema.$ref ?? schema.allOf?.[0]?.$ref;

describe('OpenAPI document (GET /docs/openapi.json)', () => {
  let sut: TestApp;
  let doc: OasDocument;
  const operations = () => Object.values(doc.paths).flatMap((item) => Object.values(item));
  const operation = (operationId: string) => {
    const found = operations().find((op) => op.operationId === operationId);
    if (!found) throw new Error(`no operation ${operationId}`);
    return found;
  };
  const parameter = (operationId: string, name: string) =>
    operation(operationId).parameters?.find((p) => p.name === name);
  const jsonSchema = (operationId: string, status: string) =>
    operation(operationId).responses[status]?.content?.['application/json']?.schema;

  beforeAll(async () => {
    sut = await startApp({ env: { PUBLIC_BASE_URL: PRODUCTION, STAGING_BASE_URL: STAGING } });
    const response = await fetch(`${sut.origin}/docs/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    doc = (await response.json()) as OasDocument;
  });
  afterAll(() => sut.close());

  it('serves Swagger UI at /docs without a key', async () => {
    const response = await fetch(`${sut.origin}/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await response.text()).toContain('swagger-ui');
  });

  it('declares OpenAPI 3 and the interface version the contract holds (1.1.0 since name search)', () => {
    expect(doc.openapi).toMatch(/^3\.\d+\.\d+$/);
    expect(doc.info.version).toBe(API_VERSION);
    expect(API_VERSION).toMatch(/^1\.(?:[1-9]|\d{2,})\.\d+$/);
  });

  it('lists this server first (relative, for "Try it out"), then production and staging from configuration, all ending in /v1', () => {
    expect(doc.servers.map((server) => server.url)).toEqual(['/v1', PRODUCTION, STAGING]);
  });

  it('marks every server as the public API (x-internal: false) and labels each truthfully', () => {
    expect(doc.servers).toEqual([
      { url: '/v1', description: expect.stringMatching(/^This server: the one this document was loaded from/), 'x-internal': false },
      { url: PRODUCTION, description: 'Production', 'x-internal': false },
      { url: STAGING, description: 'Staging', 'x-internal': false },
    ]);
  });

  it('without PUBLIC_BASE_URL, names where the service listens, its port included, never a default port', async () => {
    const local = await startApp();
    try {
      const served = (await (await fetch(`${local.origin}/docs/openapi.json`)).json()) as OasDocument;
      expect(served.servers).toEqual([
        expect.objectContaining({ url: '/v1' }),
        { url: `${local.origin}/v1`, description: 'Where this process listens (PUBLIC_BASE_URL, the production address, is not set)', 'x-internal': false },
      ]);
    } finally {
      await local.close();
    }
  });

  it('never pre-fills Idempotency-Key: every create would otherwise share one key', () => {
    const header = parameter('createPet', 'Idempotency-Key');
    expect(header?.example).toBeUndefined();
    expect(header?.schema).not.toHaveProperty('example');
    expect(header?.schema).not.toHaveProperty('default');
    expect(header?.description).toMatch(/leave it empty/);
  });

  it('gives every error response examples of its own status, and never the same message twice in an operation', () => {
    for (const op of operations()) {
      const seen = new Set<string>();
      for (const [status, response] of Object.entries(op.responses).filter(([status]) => Number(status) >= 400)) {
        const examples = Object.values(response.content?.['application/json']?.examples ?? {});
        expect({ operation: op.operationId, status, examples: examples.length > 0 }).toEqual({ operation: op.operationId, status, examples: true });
        for (const { value } of examples) {
          expect({ operation: op.operationId, status: value.status }).toEqual({ operation: op.operationId, status: Number(status) });
          expect(seen.has(value.message)).toBe(false);
          seen.add(value.message);
        }
      }
    }
  });

  it('has exactly the interface paths, methods and operationIds, and the event stream of 1.2.0', () => {
    const ids = Object.fromEntries(
      Object.entries(doc.paths).map(([path, item]) => [
        path,
        Object.fromEntries(Object.entries(item).map(([method, op]) => [method, op.operationId])),
      ]),
    );
    expect(ids).toEqual({
      '/pets': { get: 'listPets', post: 'createPet' },
      '/pets/{petId}': { get: 'getPet' },
      '/events': { get: 'streamEvents' },
    });
  });

  describe('listPets parameters', () => {
    it('documents limit as an optional integer from 1 to 100, default 20', () => {
      expect(parameter('listPets', 'limit')).toMatchObject({
        in: 'query',
        required: false,
        schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
      });
      expect(parameter('listPets', 'limit')?.schema.format).toBe('int32');
    });

    it('documents status as an optional reference to the named PetStatus schema', () => {
      expect(parameter('listPets', 'status')).toMatchObject({ in: 'query', required: false });
      expect(refOf(parameter('listPets', 'status')?.schema ?? {})).toBe(ref('PetStatus'));
    });

    it('documents the optional opaque cursor', () => {
      expect(parameter('listPets', 'cursor')).toMatchObject({
        in: 'query',
        required: false,
        schema: { type: 'string' },
      });
    });

    it('bounds the cursor as the service enforces it', () => {
      expect(parameter('listPets', 'cursor')?.schema).toMatchObject({
        minLength: CURSOR_LENGTH.min,
        maxLength: CURSOR_LENGTH.max,
        pattern: '^[A-Za-z0-9_-]+$',
      });
    });

    it('documents name (1.1.0) as an optional string of 1 to 100 characters, without an example Try it out would send', () => {
      const name = parameter('listPets', 'name');
      expect(name).toMatchObject({ in: 'query', required: false, schema: { type: 'string', minLength: NAME_LENGTH.min, maxLength: NAME_LENGTH.max } });
      expect(name?.schema.example).toBeUndefined();
      expect(name?.description).toMatch(/ignoring case.*"ÉLO" finds "Éloïse".*control characters/s);
    });

    it('documents categoryId (1.1.0) as an optional int64 from 1, as a pet\'s categoryId is', () => {
      expect(parameter('listPets', 'categoryId')).toMatchObject({
        in: 'query',
        required: false,
        schema: { type: 'integer', format: 'int64', minimum: 1, maximum: MAX_ID },
      });
    });

    it('documents nothing else, in the order a request usually gives them', () => {
      expect(operation('listPets').parameters?.map((p) => p.name)).toEqual(['limit', ...Object.keys(PET_FILTERS), 'cursor']);
    });
  });

  it('documents petId as a required int64 path parameter and no other parameter of getPet', () => {
    // Bounded by the ids a pet can have; the rest of the int64 range is answered 404 (see the description).
    const int64 = { type: 'integer', format: 'int64', minimum: 1, maximum: MAX_ID, example: 42 };
    expect(operation('getPet').parameters).toEqual([
      expect.objectContaining({ name: 'petId', in: 'path', required: true, schema: int64 }),
    ]);
  });

  it('says why petId is a sequential integer: the API key, not id secrecy, governs access', () => {
    expect(parameter('getPet', 'petId')?.description).toMatch(/sequential integers.*API key, not by id secrecy/s);
  });

  it('takes a required NewPet body on createPet', () => {
    const body = operation('createPet').requestBody;
    expect(body?.required).toBe(true);
    expect(Object.keys(body?.content ?? {})).toEqual(['application/json']);
    expect(body?.content['application/json'].schema.$ref).toBe(ref('NewPet'));
  });

  it('documents the optional Idempotency-Key header of createPet as 1 to 255 visible ASCII characters', () => {
    expect(operation('createPet').parameters).toEqual([
      expect.objectContaining({
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        schema: expect.objectContaining({ type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' }),
      }),
    ]);
    expect(operation('createPet').description).toMatch(/Idempotency-Key.*24 hours/s);
  });

  describe('schemas', () => {
    const schema = (name: string) => doc.components.schemas[name];
    const int64 = { type: 'integer', format: 'int64' };

    it('defines PetStatus as the string enum available, pending, sold', () => {
      expect(schema('PetStatus')).toMatchObject({ type: 'string', enum: ['available', 'pending', 'sold'] });
    });

    it.each([
      ['Pet', ['id', 'name', 'categoryId']],
      ['NewPet', ['name', 'categoryId']],
    ])('defines %s with the interface’s fields, types and required list', (name, required) => {
      const { type, properties = {}, required: actual = [] } = schema(name);
      expect(type).toBe('object');
      expect(Object.keys(properties)).toEqual(expect.arrayContaining([...required, 'status']));
      expect(properties.name).toMatchObject({ type: 'string' });
      expect(properties.categoryId).toMatchObject(int64);
      if (name === 'Pet') expect(properties.id).toMatchObject(int64);
      expect(refOf(properties.status)).toBe(ref('PetStatus'));
      expect(actual).toEqual(expect.arrayContaining(required));
    });

    it.each([
      ['Pet', fieldEntries(PET_FIELDS)],
      ['NewPet', sentFieldEntries(PET_FIELDS)],
    ])('defines %s with exactly the contract’s fields, each as its kind is published', (name, entries) => {
      const { properties = {}, required = [] } = schema(name);
      expect(Object.keys(properties).sort()).toEqual(entries.map(([field]) => field).sort());
      expect([...required].sort()).toEqual(entries.filter(([, spec]) => !spec.optional).map(([field]) => field).sort());
      for (const [field, spec] of entries) {
        const property = properties[field];
        const published = { field, ...(refOf(property) ? schema(String(refOf(property)).replace(ref(''), '')) : property) };
        if (spec.kind === 'integer') expect(published).toMatchObject({ field, ...int64, minimum: spec.min, maximum: spec.max });
        if (spec.kind === 'text') expect(published).toMatchObject({ field, type: 'string', minLength: spec.minLength, maxLength: spec.maxLength });
        if (spec.kind === 'choice') expect(published).toMatchObject({ field, type: 'string', enum: [...spec.values] });
        if (spec.kind === 'date') expect(published).toMatchObject({ field, type: 'string', format: 'date' });
      }
    });

    it('defines Pet exactly as the service serialises pets, so that the document and the answers cannot drift', () => {
      const { properties = {} } = schema('Pet');
      const serialised: Record<string, { type: string; enum?: readonly string[] }> = PET_RESPONSE_SCHEMA.properties;
      expect(Object.keys(serialised).sort()).toEqual(Object.keys(properties).sort());
      for (const [name, property] of Object.entries(properties)) {
        const named = refOf(property);
        const documented = named ? schema(named.replace(ref(''), '')) : property;
        expect({ name, type: serialised[name].type, enum: serialised[name].enum }).toEqual({ name, type: documented.type, enum: documented.enum });
      }
    });

    it('defines Error as code, message and status, all required', () => {
      const { type, properties = {}, required = [] } = schema('Error');
      expect(type).toBe('object');
      expect(Object.keys(properties).sort()).toEqual(['code', 'message', 'status']);
      expect(properties.message).toMatchObject({ type: 'string' });
      expect(properties.status).toMatchObject({ type: 'integer' });
      expect([...required].sort()).toEqual(['code', 'message', 'status']);
    });

    it('bounds Error: a message of at most the length the service cuts it to, an int32 HTTP status', () => {
      const { properties = {} } = schema('Error');
      expect(properties.message.maxLength).toBe(ERROR_MESSAGE_MAX_LENGTH);
      expect(properties.status).toMatchObject({ type: 'integer', format: 'int32', minimum: 100, maximum: 599 });
    });

    it('lists every error code the service answers with', () => {
      const codes = refOf(schema('Error').properties?.code ?? {});
      expect(codes).toBe(ref('ErrorCode'));
      expect(schema('ErrorCode')).toMatchObject({ type: 'string' });
      expect([...(schema('ErrorCode').enum ?? [])].sort()).toEqual(Object.keys(ERROR_CODES).sort());
    });

    it('defines Pets as an array of Pet', () => {
      expect(schema('Pets')).toEqual(expect.objectContaining({ type: 'array', items: { $ref: ref('Pet') } }));
    });

    it('bounds Pets by the largest limit', () => {
      expect(schema('Pets').maxItems).toBe(LIST_LIMIT.max);
    });
  });

  describe('responses', () => {
    it.each([
      ['listPets', '200', 'Pets'],
      ['listPets', '401', 'Error'],
      ['listPets', '403', 'Error'],
      ['createPet', '201', 'Pet'],
      ['createPet', '400', 'Error'],
      ['createPet', '401', 'Error'],
      ['createPet', '403', 'Error'],
      ['createPet', '409', 'Error'],
      ['createPet', '422', 'Error'],
      ['getPet', '200', 'Pet'],
      ['getPet', '401', 'Error'],
      ['getPet', '403', 'Error'],
      ['getPet', '404', 'Error'],
    ])('%s answers %s with %s', (operationId, status, schemaName) => {
      expect(jsonSchema(operationId, status)).toEqual({ $ref: ref(schemaName) });
    });

    it('has only the documented success status and gives every error the Error schema', () => {
      const success = { listPets: '200', createPet: '201', getPet: '200', streamEvents: '200' } as Record<string, string>;
      for (const op of operations()) {
        const statuses = Object.keys(op.responses);
        expect(statuses.filter((status) => status.startsWith('2'))).toEqual([success[op.operationId]]);
        for (const status of statuses.filter((s) => !s.startsWith('2'))) {
          expect({ op: op.operationId, status, schema: jsonSchema(op.operationId, status) }).toEqual({
            op: op.operationId,
            status,
            schema: { $ref: ref('Error') },
          });
        }
      }
    });
  });

  describe('response headers', () => {
    const responses = () =>
      operations().flatMap((op) => Object.entries(op.responses).map(([status, response]) => ({ op: op.operationId, status, response })));
    const headerNames = (response: OasResponse) => Object.keys(response.headers ?? {});

    it('declares the RateLimit fields on every response of every operation, the 401 giving the failed-authentication budget', () => {
      for (const { op, status, response } of responses()) {
        expect({ op, status, headers: headerNames(response) }).toEqual({
          op,
          status,
          headers: expect.arrayContaining(['RateLimit-Policy', 'RateLimit']),
        });
      }
    });

    it('declares Retry-After on every 429 and 503, and WWW-Authenticate on every 401', () => {
      for (const { op, status, response } of responses()) {
        if (status === '429' || status === '503') expect({ op, status, headers: headerNames(response) }).toEqual({ op, status, headers: expect.arrayContaining(['Retry-After']) });
        if (status === '401') expect({ op, status, headers: headerNames(response) }).toEqual({ op, status, headers: expect.arrayContaining(['WWW-Authenticate']) });
      }
    });

    it.each(Object.entries(OPERATION_SCOPES))("declares on %s's 403 the RFC 6750 challenge naming %s", (operationId, scope) => {
      const forbidden = operations().find((op) => op.operationId === operationId)?.responses['403'];
      expect(forbidden?.description).toContain('insufficient_scope');
      expect(forbidden?.headers?.['WWW-Authenticate'].schema.enum).toEqual([`Bearer error="insufficient_scope", scope="${scope}"`]);
    });

    it('bounds every string header', () => {
      for (const { op, status, response } of responses()) {
        for (const [name, { schema }] of Object.entries(response.headers ?? {})) {
          if (schema.type !== 'string') continue;
          expect({ op, status, name, bounded: schema.maxLength !== undefined || schema.enum !== undefined }).toEqual({ op, status, name, bounded: true });
        }
      }
    });

    it('declares no Access-Control-Allow-Origin while CORS is off', () => {
      expect(responses().filter(({ response }) => headerNames(response).includes('Access-Control-Allow-Origin'))).toEqual([]);
    });

    it('declares Access-Control-Allow-Origin, with the configured origins, on every response when CORS_ORIGINS is set', async () => {
      const origins = ['https://shop.example.com', 'https://admin.example.com'];
      const cors = await startApp({ env: { PUBLIC_BASE_URL: PRODUCTION, CORS_ORIGINS: origins.join(',') } });
      try {
        const corsDoc = (await (await fetch(`${cors.origin}/docs/openapi.json`)).json()) as OasDocument;
        const all = Object.values(corsDoc.paths).flatMap((item) => Object.values(item)).flatMap((op) => Object.values(op.responses));
        expect(all.length).toBe(responses().length);
        for (const response of all) {
          expect(response.headers?.['Access-Control-Allow-Origin']?.schema).toMatchObject({ type: 'string', enum: origins });
        }
      } finally {
        await cors.close();
      }
    });
  });

  describe('getPet deprecation', () => {
    it('is marked deprecated, naming the sunset date and the replacement', () => {
      const getPet = operation('getPet');
      expect(getPet.deprecated).toBe(true);
      expect(getPet.description).toContain('2030-12-05');
      expect(getPet.description).toContain('GET /pets');
    });

    it('documents Deprecation, Sunset and Link on every response', () => {
      const responses = Object.entries(operation('getPet').responses);
      expect(responses.length).toBeGreaterThanOrEqual(3);
      for (const [status, response] of responses) {
        expect({ status, headers: Object.keys(response.headers ?? {}) }).toEqual({
          status,
          headers: expect.arrayContaining(['Deprecation', 'Sunset', 'Link']),
        });
      }
    });

    it('is the only deprecated operation', () => {
      expect(operations().filter((op) => op.deprecated).map((op) => op.operationId)).toEqual(['getPet']);
    });
  });

  describe('security', () => {
    it('declares an HTTP bearer scheme for opaque API keys', () => {
      const schemes = Object.values(doc.components.securitySchemes);
      expect(schemes).toHaveLength(1);
      expect(schemes[0]).toMatchObject({ type: 'http', scheme: 'bearer' });
      expect(schemes[0].bearerFormat).not.toBe('JWT');
    });

    it("lists the scopes in the scheme's description, and in each operation's the one it needs", () => {
      const [scheme] = Object.values(doc.components.securitySchemes);
      for (const scope of SCOPES) expect(scheme.description).toContain(`\`${scope}\``);
      expect(scheme.description).toContain('insufficient_scope');
      for (const op of operations()) {
        expect(op.description).toContain(`Needs an API key with the \`${OPERATION_SCOPES[op.operationId as OperationId]}\` scope.`);
      }
    });

    it('applies it globally and no operation opts out', () => {
      const [name] = Object.keys(doc.components.securitySchemes);
      expect(doc.security).toEqual([{ [name]: [] }]);
      for (const op of operations()) {
        expect({ op: op.operationId, security: op.security ?? doc.security }).toEqual({
          op: op.operationId,
          security: [{ [name]: [] }],
        });
      }
    });
  });

  describe('webhooks: the pet.created event', () => {
    const petCreated = () => doc.webhooks['pet.created'].post;

    it('is described in OpenAPI 3.1 webhooks, not in an extension', () => {
      expect(doc.openapi).toBe('3.1.0');
      expect(doc['x-webhooks']).toBeUndefined();
      expect(Object.keys(doc.webhooks)).toEqual(['pet.created']);
      expect(Object.keys(doc.webhooks['pet.created'])).toEqual(['post']);
      expect(petCreated()).toMatchObject({ operationId: 'petCreated', summary: expect.any(String) });
    });

    it('says how it is signed, where the secret comes from, that it comes at least once, and how it is retried', () => {
      const { description } = petCreated();
      expect(description).toContain('[Standard Webhooks](https://www.standardwebhooks.com/)');
      expect(description).toContain('`npm run webhooks -- add --url https://…`');
      expect(description).toMatch(/at least once.*same `webhook-id`.*deduplicate by it/s);
      expect(description).toContain('retried 9 times, waiting 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h');
    });

    it('is sent without a bearer key: the signature stands for it', () => {
      expect(petCreated().security).toEqual([]);
    });

    it('carries the three Standard Webhooks headers, required and bounded, each with an example of its own shape', () => {
      const parameters = petCreated().parameters ?? [];
      expect(parameters.map(({ name, in: where, required }) => [name, where, required])).toEqual([
        ['webhook-id', 'header', true],
        ['webhook-timestamp', 'header', true],
        ['webhook-signature', 'header', true],
      ]);
      for (const { name, schema } of parameters) {
        expect({ name, type: schema.type, bounded: typeof schema.maxLength === 'number' }).toEqual({ name, type: 'string', bounded: true });
        expect({ name, example: schema.example }).toEqual({ name, example: expect.stringMatching(new RegExp(schema.pattern ?? '')) });
        expect(String(schema.example).length).toBeLessThanOrEqual(schema.maxLength ?? 0);
      }
      expect(parameters[0].schema.example).toBe('msg_4f1c2a9e8b7d6035_42');
    });

    it('sends a PetCreatedEvent: the type pet.created, a date-time timestamp and the Pet, all required', () => {
      const body = petCreated().requestBody;
      expect(body?.required).toBe(true);
      expect(Object.keys(body?.content ?? {})).toEqual(['application/json']);
      expect(body?.content['application/json'].schema).toEqual({ $ref: ref('PetCreatedEvent') });
      const event = doc.components.schemas.PetCreatedEvent;
      expect(event).toMatchObject({
        type: 'object',
        properties: {
          type: { type: 'string', enum: ['pet.created'] },
          timestamp: { type: 'string', format: 'date-time' },
          data: { $ref: ref('Pet') },
        },
      });
      expect([...(event.required ?? [])].sort()).toEqual(['data', 'timestamp', 'type']);
      expect(body?.content['application/json'].example).toEqual({
        type: 'pet.created',
        timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        data: { id: expect.any(Number), name: expect.any(String), categoryId: expect.any(Number), status: 'available' },
      });
    });

    it('takes any 2XX answer as delivered and retries any other, or none within the timeout', () => {
      expect(petCreated().responses).toEqual({ '2XX': { description: 'Delivered. Any other answer, or none within 10 s, is retried.' } });
    });

    it('describes the retries and the timeout configured (WEBHOOK_RETRY_SCHEDULE, WEBHOOK_TIMEOUT_MS)', async () => {
      const configured = await startApp({ env: { PUBLIC_BASE_URL: PRODUCTION, WEBHOOK_RETRY_SCHEDULE: '0.5,90,7200', WEBHOOK_TIMEOUT_MS: '2500' } });
      try {
        const other = (await (await fetch(`${configured.origin}/docs/openapi.json`)).json()) as OasDocument;
        const post = other.webhooks['pet.created'].post;
        expect(post.description).toContain('retried 3 times, waiting 0.5 s, 90 s and 2 h after the failed attempts in turn; then it has failed.');
        expect(post.responses['2XX'].description).toBe('Delivered. Any other answer, or none within 2.5 s, is retried.');
      } finally {
        await configured.close();
      }
    });
  });
});
