import { closeObjects, comparableDocument } from './comparable-document';

/* eslint-disable @typescript-eslint/no-explicit-any */

describe(comparableDocument.name, () => {
  const document = {
    openapi: '3.1.0',
    paths: {
      '/pets/{petId}': {
        get: {
          parameters: [
            { name: 'petId', in: 'path', required: true, schema: { type: 'integer' } },
            { name: 'X-Trace', in: 'header', schema: { $ref: '#/components/schemas/Trace' } },
          ],
          responses: { 200: { description: 'd', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } } },
        },
      },
    },
    webhooks: { 'pet.created': { post: { requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } }, responses: {} } } },
    components: { schemas: { Trace: { type: 'string' }, Pet: { type: 'object', properties: { name: { type: 'string' } } } } },
  };

  it("lays an operation's parameters out as a closed object, a path parameter by its place", () => {
    expect(comparableDocument(document).paths).toMatchObject({
      '/~parameters/pets/{petId}': {
        get: {
          requestBody: {
            content: {
              'application/json': {
                schema: { type: 'object', additionalProperties: false, properties: { 'path #1': { type: 'integer' }, 'header x-trace': { type: 'string' } }, required: ['path #1'] },
              },
            },
          },
        },
      },
    });
  });

  it('inlines response schemas without closing them, and turns a webhook into a response', () => {
    const { paths } = comparableDocument(document) as { paths: Record<string, unknown> };
    const pet = { type: 'object', properties: { name: { type: 'string' } } };
    expect(paths['/pets/{petId}']).toMatchObject({ get: { responses: { 200: { content: { 'application/json': { schema: pet } } } } } });
    expect(paths['/~webhooks/pet.created']).toMatchObject({ get: { responses: { 200: { content: { 'application/json': { schema: pet } } } } } });
    expect(comparableDocument(document)).not.toHaveProperty('webhooks');
  });

  it("moves a response's headers into the body of the same response of its own path, by lower-case name", () => {
    const withHeaders = structuredClone(document) as any;
    withHeaders.paths['/pets/{petId}'].get.responses[200].headers = {
      'Retry-After': { required: true, schema: { type: 'integer' } },
      'X-Trace': { content: { 'text/plain': { schema: { $ref: '#/components/schemas/Trace' } } } },
    };
    const { paths } = comparableDocument(withHeaders) as { paths: Record<string, any> };
    expect(paths['/pets/{petId}'].get.responses[200]).not.toHaveProperty('headers');
    expect(paths['/~headers/pets/{petId}'].get.responses[200].content['application/json'].schema).toEqual({
      type: 'object',
      properties: { 'retry-after': { type: 'integer' }, 'x-trace': { type: 'string' } },
      required: ['retry-after'],
    });
  });

  it('closes the objects of a request, but not a combination of them', () => {
    expect(closeObjects({ type: 'object', properties: { tags: { type: 'array', items: { properties: { a: {} } } } } })).toEqual({
      type: 'object',
      additionalProperties: false,
      properties: { tags: { type: 'array', items: { properties: { a: {} }, additionalProperties: false } } },
    });
    expect(closeObjects({ properties: { a: {} }, allOf: [{ properties: { b: {} } }] })).toEqual({ properties: { a: {} }, allOf: [{ properties: { b: {} } }] });
  });
});
