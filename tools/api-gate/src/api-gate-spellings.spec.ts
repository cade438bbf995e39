import type { GateReport } from './api-gate';
import type { Json, JsonObject } from './json';
import { gateBetween, getPet, listPets, petCreated, schemas, type Seed } from './testing/seeds';

// Each class of change (an enum narrowed or widened, a field made nullable, a default changed, an equivalent rewrite)
// in several JSON Schema spellings, at each place a schema lives: the gate decides by what a spelling means, wherever
// it is written. The release holds the same field, `mode`, at every place (`withMode`); each case rewrites one.

/* eslint-disable @typescript-eslint/no-explicit-any */
const MODES = ['available', 'pending', 'sold'];
const mode = (): JsonObject => ({ type: 'string', enum: [...MODES], default: 'available' });

export interface Place {
  /** Whether clients send it (narrowing breaks them) or read it (widening does). */
  direction: 'request' | 'response';
  /** Where the gate's findings name it. */
  where: string;
  /** The object holding the field's schema, and its key there. */
  at: (document: any) => [holder: any, key: string | number];
}

const parameterAt = (parameters: any[], name: string): [any, string] => [parameters.find((parameter) => parameter.name === name), 'schema'];

export const PLACES: Record<string, Place> = {
  'a request body field': { direction: 'request', where: 'POST /pets request body', at: (d) => [schemas(d).NewPet.properties, 'mode'] },
  'a query parameter': { direction: 'request', where: 'GET /pets parameters', at: (d) => parameterAt(listPets(d).parameters, 'mode') },
  'a request header': { direction: 'request', where: 'GET /pets parameters', at: (d) => parameterAt(listPets(d).parameters, 'X-Mode') },
  'a response body field': { direction: 'response', where: 'GET /pets/{petId} response 200', at: (d) => [schemas(d).Pet.properties, 'mode'] },
  'a response header': { direction: 'response', where: 'GET /pets/{petId} response 200 headers', at: (d) => [getPet(d).responses['200'].headers['X-Mode'], 'schema'] },
  'a webhook payload field': { direction: 'response', where: 'webhook pet.created response 200', at: (d) => [schemas(d).PetCreatedEvent.properties, 'mode'] },
  'a webhook header': { direction: 'response', where: 'webhook pet.created response 200 headers', at: (d) => parameterAt(petCreated(d).parameters, 'x-mode') },
};

/** The release: `mode` at every place, an optional field or parameter, written plainly. */
export const withMode: Seed = (d) => {
  schemas(d).NewPet.properties.mode = mode();
  schemas(d).Pet.properties.mode = mode();
  schemas(d).PetCreatedEvent.properties.mode = mode();
  listPets(d).parameters.push({ name: 'mode', in: 'query', schema: mode() }, { name: 'X-Mode', in: 'header', schema: mode() });
  getPet(d).responses['200'].headers['X-Mode'] = { schema: mode() };
  petCreated(d).parameters.push({ name: 'x-mode', in: 'header', schema: mode() });
};

/** A rewrite of the field's schema: given the release's, returns the current one (it may add components to `d`). */
export type Spelling = (schema: JsonObject, d: any) => Json;

const without = (schema: JsonObject, ...keywords: string[]) => Object.fromEntries(Object.entries(schema).filter(([keyword]) => !keywords.includes(keyword)));
const consts = (values: string[]) => values.map((value) => ({ const: value }));

export const NARROWED: Record<string, Spelling> = {
  'a value left out of the enum': (s) => ({ ...s, enum: ['available', 'pending'] }),
  'an anyOf of enums': (s) => ({ default: s.default, anyOf: [{ type: 'string', enum: ['available'] }, { type: 'string', enum: ['pending'] }] }),
  'a oneOf of consts': (s) => ({ type: 'string', default: s.default, oneOf: consts(['available', 'pending']) }),
  'a one-member allOf around a $ref': (s, d) => {
    schemas(d).Mode = { type: 'string', enum: ['available', 'pending'] };
    return { default: s.default, allOf: [{ $ref: '#/components/schemas/Mode' }] };
  },
};

export const WIDENED: Record<string, Spelling> = {
  'a value added to the enum': (s) => ({ ...s, enum: [...MODES, 'lost'] }),
  'an anyOf of the enum and a const': (s) => ({ default: s.default, anyOf: [without(s, 'default'), { const: 'lost' }] }),
  'a oneOf of consts': (s) => ({ type: 'string', default: s.default, oneOf: consts([...MODES, 'lost']) }),
};

export const MADE_NULLABLE: Record<string, Spelling> = {
  'a type list with null': (s) => ({ ...s, type: ['string', 'null'] }),
  'an anyOf with a {type: null} branch': (s) => ({ default: s.default, anyOf: [without(s, 'default'), { type: 'null' }] }),
  'a oneOf with a {type: null} branch first': (s) => ({ default: s.default, oneOf: [{ type: 'null', description: 'Not known yet.' }, without(s, 'default')] }),
};

export const DEFAULT_CHANGED: Record<string, Spelling> = {
  'the default rewritten': (s) => ({ ...s, default: 'pending' }),
  'the default dropped': (s) => without(s, 'default'),
  'the default moved beside a one-member allOf, changed': (s) => ({ default: 'sold', allOf: [without(s, 'default')] }),
};

export const EQUIVALENT: Record<string, Spelling> = {
  'the schema moved to a component, referenced through a one-member allOf': (s, d) => {
    schemas(d).Mode = without(s, 'default');
    return { default: s.default, allOf: [{ $ref: '#/components/schemas/Mode' }] };
  },
  'the enum as a oneOf of consts': (s) => ({ type: 'string', default: s.default, oneOf: consts(MODES) }),
  'the enum as an anyOf of enums that overlap': (s) => ({ default: s.default, anyOf: [{ type: 'string', enum: ['available', 'pending'] }, { type: 'string', enum: ['pending', 'sold'] }] }),
  'the type as a list of one': (s) => ({ ...s, type: ['string'] }),
  'a description and an example added': (s) => ({ ...s, description: 'How the pet is offered.', examples: ['pending'] }),
};

export function rewrite(place: Place, spelling: Spelling): Seed {
  return (d) => {
    const [holder, key] = place.at(d);
    holder[key] = spelling(structuredClone(holder[key]), d);
  };
}

type Verdict = 'breaking' | 'minor' | 'none';
const verdictOf = (report: GateReport): Verdict => (report.breaking.length > 0 ? 'breaking' : report.minor.length > 0 ? 'minor' : 'none');

/** Every spelling of a class at every place, with the verdict a consumer there would expect. */
function cases(spellings: Record<string, Spelling>, verdict: (place: Place) => Verdict): Array<[string, string, Verdict, Place, Spelling]> {
  return Object.entries(PLACES).flatMap(([placeName, place]) =>
    Object.entries(spellings).map(([spellingName, spelling]): [string, string, Verdict, Place, Spelling] => [placeName, spellingName, verdict(place), place, spelling]),
  );
}

const bySide = (request: Verdict, response: Verdict) => (place: Place) => (place.direction === 'request' ? request : response);

describe('api-gate reads a change by what it means, however it is spelled and wherever it is written', () => {
  it('finds no change between the seeded release and itself', async () => {
    await expect(gateBetween(withMode, () => undefined)).resolves.toMatchObject({ change: 'none' });
  });

  // Removing a value is refused in responses too (docs/releasing.md: our enums are shared, and code naming it breaks).
  describe.each(cases(NARROWED, () => 'breaking'))('an enum narrowed, at %s, through %s', (_place, _spelling, verdict, place, spelling) => {
    it(`is ${verdict}`, async () => {
      const report = await gateBetween(withMode, rewrite(place, spelling));
      expect(verdictOf(report)).toBe(verdict);
      expect(report.breaking).toContainEqual(expect.objectContaining({ where: expect.stringContaining(place.where), what: expect.stringContaining('"sold" removed') }));
    });
  });

  describe.each(cases(WIDENED, bySide('minor', 'breaking')))('an enum widened, at %s, through %s', (_place, _spelling, verdict, place, spelling) => {
    it(`is ${verdict}`, async () => {
      const report = await gateBetween(withMode, rewrite(place, spelling));
      expect(verdictOf(report)).toBe(verdict);
      expect(report[verdict as 'breaking' | 'minor']).toContainEqual(expect.objectContaining({ where: expect.stringContaining(place.where), what: expect.stringContaining('"lost" added') }));
    });
  });

  describe.each(cases(MADE_NULLABLE, bySide('minor', 'breaking')))('a field made nullable, at %s, through %s', (_place, _spelling, verdict, place, spelling) => {
    it(`is ${verdict}`, async () => {
      const report = await gateBetween(withMode, rewrite(place, spelling));
      expect(verdictOf(report)).toBe(verdict);
      expect(report[verdict as 'breaking' | 'minor']).toContainEqual(expect.objectContaining({ where: expect.stringContaining(place.where), what: expect.stringContaining('made nullable') }));
    });
  });

  // A default is what the service assumes of a request that leaves the field out; a response's default says nothing.
  describe.each(cases(DEFAULT_CHANGED, bySide('breaking', 'none')))('a default changed or dropped, at %s, through %s', (_place, _spelling, verdict, place, spelling) => {
    it(`is ${verdict}`, async () => {
      const report = await gateBetween(withMode, rewrite(place, spelling));
      expect(verdictOf(report)).toBe(verdict);
      if (verdict === 'breaking') expect(report.breaking).toContainEqual(expect.objectContaining({ where: expect.stringContaining(place.where), what: expect.stringContaining('default') }));
    });
  });

  describe.each(cases(EQUIVALENT, () => 'none'))('an equivalent rewrite, at %s: %s', (_place, _spelling, verdict, place, spelling) => {
    it(`is ${verdict}`, async () => {
      const report = await gateBetween(withMode, rewrite(place, spelling));
      expect({ breaking: report.breaking, minor: report.minor }).toEqual({ breaking: [], minor: [] });
    });
  });
});
