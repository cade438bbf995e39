import { toOpenApi30, toSchema30 } from './openapi-30';

describe(toSchema30.name, () => {
  it('writes a type list with null as nullable, and several types as an anyOf', () => {
    expect(toSchema30({ type: ['string', 'null'], maxLength: 3 })).toEqual({ type: 'string', nullable: true, maxLength: 3 });
    expect(toSchema30({ type: ['integer', 'string'] })).toEqual({ anyOf: [{ type: 'integer' }, { type: 'string' }] });
  });

  it('writes a {type: null} branch of anyOf or oneOf as nullable, a single branch left as the schema itself', () => {
    expect(toSchema30({ description: 'A name.', anyOf: [{ type: 'string', maxLength: 3 }, { type: 'null' }] })).toEqual({
      description: 'A name.',
      type: 'string',
      maxLength: 3,
      nullable: true,
    });
    expect(toSchema30({ oneOf: [{ type: 'integer' }, { type: 'string' }, { type: 'null', description: 'None yet.' }] })).toEqual({
      oneOf: [{ type: 'integer' }, { type: 'string' }],
      nullable: true,
    });
  });

  it('reads an anyOf or oneOf of value sets of one type as one enum of their values', () => {
    expect(toSchema30({ oneOf: [{ const: 'a' }, { const: 'b', description: 'B.' }] })).toEqual({ enum: ['a', 'b'] });
    expect(toSchema30({ anyOf: [{ type: 'string', enum: ['a', 'b'] }, { type: 'string', enum: ['b', 'c'] }] })).toEqual({ type: 'string', enum: ['a', 'b', 'c'] });
    // Branches of other types, or with constraints besides their values, stay a composition.
    expect(toSchema30({ anyOf: [{ type: 'string', enum: ['a'] }, { type: 'integer', enum: [1] }] })).toHaveProperty('anyOf');
    expect(toSchema30({ anyOf: [{ enum: ['a'] }, { type: 'string', maxLength: 3 }] })).toHaveProperty('anyOf');
  });

  it('writes const as a one-value enum, examples as example, and numeric exclusive bounds as flags', () => {
    expect(toSchema30({ const: 'a', examples: ['a', 'b'] })).toEqual({ enum: ['a'], example: 'a' });
    expect(toSchema30({ type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 10 })).toEqual({
      type: 'number',
      minimum: 0,
      exclusiveMinimum: true,
      maximum: 10,
      exclusiveMaximum: true,
    });
  });

  it('writes boolean schemas as schemas, null alone as a nullable enum of null, and drops keywords the gate does not read', () => {
    expect(toSchema30({ type: 'object', properties: { any: true, none: false }, additionalProperties: false })).toEqual({
      type: 'object',
      properties: { any: {}, none: { not: {} } },
      additionalProperties: false,
    });
    expect(toSchema30({ type: 'null', description: 'Gone.' })).toEqual({ description: 'Gone.', nullable: true, enum: [null] });
    expect(toSchema30({ type: 'array', prefixItems: [{ const: 1 }], contains: { const: 2 }, 'x-order': 1, $comment: 'c' })).toEqual({ type: 'array', 'x-order': 1 });
  });

  it('converts nested schemas: properties, items, combinations', () => {
    const nested = { type: 'object', properties: { tags: { type: 'array', items: { type: ['string', 'null'] } } }, allOf: [{ const: 1 }, { minimum: 0 }] };
    expect(toSchema30(nested)).toEqual({
      type: 'object',
      properties: { tags: { type: 'array', items: { type: 'string', nullable: true } } },
      allOf: [{ enum: [1] }, { minimum: 0 }],
    });
  });
});

describe(toOpenApi30.name, () => {
  it('declares 3.0.3 and drops what 3.0 has no place for, leaving examples as they are', () => {
    const document = {
      openapi: '3.1.0',
      jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
      info: { title: 't', version: '1.0.0', summary: 's', license: { name: 'MIT', identifier: 'MIT' } },
      paths: { '/a': { get: { responses: { 200: { description: 'd', content: { 'application/json': { schema: { const: 1 }, example: { type: ['x'] } } } } } } } },
      webhooks: {},
    };
    expect(toOpenApi30(document)).toEqual({
      openapi: '3.0.3',
      info: { title: 't', version: '1.0.0', license: { name: 'MIT' } },
      paths: { '/a': { get: { responses: { 200: { description: 'd', content: { 'application/json': { schema: { enum: [1] }, example: { type: ['x'] } } } } } } } },
    });
  });
});
