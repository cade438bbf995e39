import { type FieldSpec, filterEntries, type Pet, PET_FIELDS, sentFieldEntries } from '@petstore/contract';
import { DataSource } from 'typeorm';
import { columnName, NAME_KEY_COLUMN, PET_COLUMN_NAMES, PET_INSERT_COLUMNS, PET_JSON_SCHEMA } from '../src/app/pets/sql/pet-row';
import { WebhookOutbox } from '../src/app/webhooks/outbox/webhook-outbox';
import { AUTH, JSON_AUTH, startApp, type TestApp } from './support/test-app';
import { TEST_DATABASE } from './support/test-database';

// The contract's field list (PET_FIELDS) is the one place that names the Pet's columns: every statement on `pets` is
// built from it (pets/sql/pet-row.ts). These hold the migrated table, every statement that writes or reads a pet, and the served
// document to the list, on the database of this run (the suite runs on SQLite, PostgreSQL and through PgBouncer).

/** A value of this kind that is not its default and differs by `seed`. */
function valueOf(field: string, spec: FieldSpec, seed: number): unknown {
  switch (spec.kind) {
    case 'integer':
      return spec.min + 6 + seed;
    case 'text':
      return `Columns ${field} ${seed}`;
    case 'choice':
      // The last values (the first is the default).
      return spec.values[spec.values.length - 1 - (seed % (spec.values.length - 1))];
    case 'date':
      return `2020-0${1 + (seed % 9)}-2${seed % 10}`;
  }
}

/**
 * A new pet with a value in every field of the list, none of them its default, so that a column a statement leaves
 * out cannot pass unseen.
 */
const everyField = (seed: number): Record<string, unknown> =>
  Object.fromEntries(sentFieldEntries(PET_FIELDS).map(([field, spec]) => [field, valueOf(field, spec, seed)]));

/** An endpoint id that no endpoint has: the dispatcher, which claims for registered endpoints only, leaves it alone. */
const UNREGISTERED_ENDPOINT = 987_654;

interface OasSchema {
  type?: string;
  enum?: string[];
  $ref?: string;
  allOf?: OasSchema[];
  properties?: Record<string, OasSchema>;
  required?: string[];
}

describe('the Pet field list', () => {
  let sut: TestApp;
  const get = async <T>(path: string): Promise<T> => {
    const response = await fetch(`${sut.origin}${path}`, { headers: AUTH });
    expect(response.status).toBe(200);
    return (await response.json()) as T;
  };
  const create = async (body: object, headers: Record<string, string> = {}): Promise<Pet> => {
    const response = await fetch(`${sut.origin}/v1/pets`, { method: 'POST', headers: { ...JSON_AUTH, ...headers }, body: JSON.stringify(body) });
    expect(response.status).toBe(201);
    return (await response.json()) as Pet;
  };
  /** Equal to the pet as created, with exactly the list's fields, in its order. */
  const expectWhole = (read: Pet | undefined, created: Pet) => {
    expect(read).toStrictEqual(created);
    expect(Object.keys(read as Pet)).toEqual(Object.keys(PET_FIELDS));
  };

  beforeAll(async () => {
    sut = await startApp();
  });
  afterAll(() => sut.close());

  it(`names exactly the columns of the migrated pets table (${TEST_DATABASE})`, async () => {
    const sql =
      TEST_DATABASE === 'sqlite'
        ? `SELECT name FROM pragma_table_info('pets')`
        : `SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'pets'`;
    const columns = ((await sut.app.get(DataSource).query(sql)) as Array<{ name: string }>).map(({ name }) => name);
    // The fields' columns, and the ones a store writes beside them (the name's search key).
    expect([...columns].sort()).toEqual([...new Set([...PET_COLUMN_NAMES, ...PET_INSERT_COLUMNS])].sort());
  });

  // An equality filter's page is `WHERE column = ? AND id > ? ORDER BY id LIMIT ?`: without this index, a scan.
  it.each(filterEntries().filter(([, spec]) => spec.match === 'equals'))(
    `has the index of the listPets filter %s, on its column then id (${TEST_DATABASE})`,
    async (_, { field }) => {
      const name = `pets_${columnName(field)}_id`;
      const sql =
        TEST_DATABASE === 'sqlite'
          ? `SELECT name FROM pragma_index_info('${name}') ORDER BY seqno`
          : `SELECT a.attname AS name FROM pg_index i CROSS JOIN unnest(i.indkey) WITH ORDINALITY AS k(attnum, position)
               JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
             WHERE i.indexrelid = to_regclass('${name}') ORDER BY k.position`;
      const columns = ((await sut.app.get(DataSource).query(sql)) as Array<{ name: string }>).map((row) => row.name);
      expect(columns).toEqual([columnName(field), 'id']);
    },
  );

  it('is what each statement writes and reads back: both creates, both pages, the reads by id, the outbox’s claim', async () => {
    const plain = await create(everyField(0));
    const keyed = await create(everyField(1), { 'idempotency-key': 'pet-columns-1' });
    expectWhole(plain, { id: plain.id, ...everyField(0) } as Pet);
    expectWhole(keyed, { id: keyed.id, ...everyField(1) } as Pet);
    // The replay reads the stored pet back.
    expectWhole(await create(everyField(1), { 'idempotency-key': 'pet-columns-1' }), keyed);

    for (const created of [plain, keyed]) {
      expectWhole((await get<Pet[]>(`/v1/pets?limit=100`)).find(({ id }) => id === created.id), created);
      expectWhole((await get<Pet[]>(`/v1/pets?limit=100&status=${created.status}`)).find(({ id }) => id === created.id), created);
    }
    // Both creates wrote the name's search key, which the name filter looks up.
    const keys = (await sut.app.get(DataSource).query(`SELECT name, ${NAME_KEY_COLUMN} AS key FROM pets WHERE id IN (${plain.id}, ${keyed.id})`)) as Array<{ name: string; key: string }>;
    expect(Object.fromEntries(keys.map(({ name, key }) => [name, key]))).toEqual({ 'Columns name 0': 'columns name 0', 'Columns name 1': 'columns name 1' });

    // Read together, so that the batched read of many ids answers them.
    const [byId, other] = await Promise.all([get<Pet>(`/v1/pets/${plain.id}`), get<Pet>(`/v1/pets/${keyed.id}`)]);
    expectWhole(byId, plain);
    expectWhole(other, keyed);

    // The outbox's claim reads the pet of each message; a message due for an endpoint nobody delivers to is left to it.
    const now = Date.now();
    await sut.app
      .get(DataSource)
      .query(
        `INSERT INTO webhook_messages (endpoint_id, event_type, pet_id, created_at, next_attempt_at) VALUES (${UNREGISTERED_ENDPOINT}, 'pet.created', ${plain.id}, ${now}, ${now})`,
      );
    const [claimed] = await sut.app.get(WebhookOutbox).claim(UNREGISTERED_ENDPOINT, now, now + 60_000, 10);
    expectWhole(claimed?.pet, plain);
  });

  it('is the served OpenAPI document’s Pet: the same properties, types, values and required fields', async () => {
    const document = await get<{ components: { schemas: Record<string, OasSchema> } }>('/docs/openapi.json');
    // A named schema is referred to, on its own or (beside a description) as the one member of allOf.
    const resolve = (schema: OasSchema): OasSchema => {
      const ref = schema.$ref ?? schema.allOf?.[0]?.$ref;
      return ref ? document.components.schemas[ref.split('/').pop() as string] : schema;
    };
    const pet = document.components.schemas.Pet;
    const documented = Object.entries(pet.properties ?? {}).map(([field, schema]) => [field, { type: resolve(schema).type, enum: resolve(schema).enum }]);
    const listed = Object.entries(PET_JSON_SCHEMA.properties).map(([field, schema]) => [field, { type: schema.type, enum: schema.enum && [...schema.enum] }]);
    expect(Object.fromEntries(listed)).toEqual(Object.fromEntries(documented));
    expect([...PET_JSON_SCHEMA.required].sort()).toEqual([...(pet.required ?? [])].sort());
  });
});
