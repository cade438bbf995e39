import { formatReport } from './report';
import { gate, gateBetween, getPet, listPets, petCreated, schemas, type Seed } from './testing/seeds';

// JSON Schema 2020-12 has keywords neither openapi-diff nor our rules read. The gate must never stop on a valid
// OpenAPI 3.1 document ("could not compare", exit 2): such a keyword the same in both documents is no change, and
// one added, dropped or changed is refused as undecided, naming its place.

const tags = () => ({ type: 'array', maxItems: 5, items: { type: 'string', maxLength: 20 } });

/** The release: a `tags` array at a request body, a response body, a webhook payload and a query parameter. */
export const withTags: Seed = (d) => {
  schemas(d).NewPet.properties.tags = tags();
  schemas(d).Pet.properties.tags = tags();
  schemas(d).PetCreatedEvent.properties.tags = tags();
  listPets(d).parameters.push({ name: 'tags', in: 'query', schema: tags() });
  getPet(d).responses['200'].headers['X-Tags'] = { schema: { type: 'string', maxLength: 200 } };
};

export const UNREAD: Array<[keyword: string, change: Seed, where: string, what: string]> = [
  ['prefixItems added', (d) => (schemas(d).NewPet.properties.tags.prefixItems = [{ const: 'first' }]), 'POST /pets request body (application/json)', 'tags: prefixItems added'],
  ['contains added', (d) => (listPets(d).parameters.at(-1).schema.contains = { const: 'dog' }), 'GET /pets parameters (application/json)', 'query tags: contains added'],
  [
    'if / then / else added',
    (d) => Object.assign(schemas(d).Pet, { if: { properties: { status: { const: 'sold' } } }, then: { required: ['tags'] } }),
    'GET /pets/{petId} response 200 (application/json)',
    'if added',
  ],
  ['dependentRequired added', (d) => (schemas(d).PetCreatedEvent.dependentRequired = { tags: ['data'] }), 'webhook pet.created response 200 (application/json)', 'dependentRequired added'],
  ['patternProperties added', (d) => (schemas(d).Pet.patternProperties = { '^x-': { type: 'string' } }), 'GET /pets response 200 (application/json)', '[]: patternProperties added'],
  ['unevaluatedProperties added', (d) => (schemas(d).NewPet.unevaluatedProperties = false), 'POST /pets request body (application/json)', 'unevaluatedProperties added'],
  ['propertyNames added', (d) => (schemas(d).PetCreatedEvent.propertyNames = { maxLength: 10 }), 'webhook pet.created response 200 (application/json)', 'propertyNames added'],
  [
    'contentMediaType added',
    (d) => (getPet(d).responses['200'].headers['X-Tags'].schema.contentMediaType = 'application/json'),
    'GET /pets/{petId} response 200 headers (application/json)',
    'x-tags: contentMediaType added',
  ],
  ['maxContains changed', (d) => (schemas(d).Pet.properties.tags.maxContains = 2), 'GET /pets/{petId} response 200 (application/json)', 'tags: maxContains 3 → 2'],
];

describe('keywords the gate does not read', () => {
  it.each(UNREAD)('refuses %s, as undecided, naming the place', async (keyword, change, where, what) => {
    const base: Seed = keyword === 'maxContains changed' ? (d) => (withTags(d), (schemas(d).Pet.properties.tags.maxContains = 3)) : withTags;
    const report = await gateBetween(base, change);
    expect(report).toMatchObject({ change: 'major', refused: true });
    expect(report.undecided).toContainEqual(expect.objectContaining({ where, what: expect.stringContaining(what), by: 'rule:unread-keyword' }));
  });

  it('refuses one dropped, and says so in its report', async () => {
    const report = await gateBetween((d) => (withTags(d), (schemas(d).NewPet.properties.tags.prefixItems = [{ const: 'first' }])), (d) => delete schemas(d).NewPet.properties.tags.prefixItems);
    const text = formatReport(report, 'releases/1.0.0.json', 'openapi.json');
    expect(text).toContain('UNDECIDED  POST /pets request body (application/json): tags: prefixItems removed: the gate does not read this keyword');
    expect(text).toMatch(/REFUSED: 0 breaking change\(s\) and 1 the gate cannot weigh/);
  });

  it('finds no change in one written the same in both documents, and still compares the rest', async () => {
    const withIf: Seed = (d) => (withTags(d), Object.assign(schemas(d).Pet, { if: { required: ['tags'] }, then: { properties: { tags: { minItems: 1 } } } }));
    await expect(gateBetween(withIf, () => undefined)).resolves.toMatchObject({ change: 'none', undecided: [] });
    const narrowed = await gateBetween(withIf, (d) => (schemas(d).PetStatus.enum = ['available', 'pending']));
    expect(narrowed).toMatchObject({ change: 'major', undecided: [] });
    expect(narrowed.breaking).toContainEqual(expect.objectContaining({ what: expect.stringContaining('"sold" removed') }));
  });

  it('lets one through with a new major version, as a breaking change', async () => {
    await expect(gateBetween(withTags, (d) => (schemas(d).NewPet.properties.tags.prefixItems = [{ const: 'first' }]), '2.0.0')).resolves.toMatchObject({
      change: 'major',
      refused: false,
    });
  });
});

// Spellings of OpenAPI 3.1 that have no 3.0 form, each once in a change, so that the gate reads them on both sides.
export const VALID_31: Array<[spelling: string, seed: Seed]> = [
  ['boolean schemas (a property allowed anything, another never)', (d) => Object.assign(schemas(d).Pet.properties, { anything: true, never: false })],
  ['a {type: null} schema on its own', (d) => (schemas(d).Pet.properties.gone = { type: 'null' })],
  ['a header described by content', (d) => (getPet(d).responses['200'].headers['X-Trace'] = { content: { 'text/plain': { schema: { type: 'string' } } } })],
  ['a parameter described by content', (d) => listPets(d).parameters.push({ name: 'filter', in: 'query', content: { 'application/json': { schema: { type: 'object' } } } })],
  [
    'a path item written as a $ref to components.pathItems',
    (d) => {
      d.components.pathItems = { Pet: d.paths['/pets/{petId}'] };
      d.paths['/pets/{petId}'] = { $ref: '#/components/pathItems/Pet' };
    },
  ],
  ['a webhook header with $comment and $schema', (d) => Object.assign(petCreated(d).parameters[0].schema, { $comment: 'Svix ids.', $schema: 'https://json-schema.org/draft/2020-12/schema' })],
];

describe('valid OpenAPI 3.1 spellings', () => {
  it.each(VALID_31)('compares %s without stopping, and finds it the same as itself', async (_spelling, seed) => {
    await expect(gateBetween(seed, () => undefined)).resolves.toMatchObject({ change: 'none', breaking: [], undecided: [], minor: [] });
    await expect(gate(seed)).resolves.toMatchObject({ undecided: [] });
  });

  it('reads a path item given by $ref as the operations it names', async () => {
    const report = await gate((d) => {
      d.components.pathItems = { Pet: d.paths['/pets/{petId}'] };
      d.paths['/pets/{petId}'] = { $ref: '#/components/pathItems/Pet' };
      delete d.components.pathItems.Pet.get.responses['404'];
    });
    expect(report.breaking).toContainEqual(expect.objectContaining({ by: 'response.status-code.remove', where: 'GET /pets/{petId} response 404' }));
  });
});
