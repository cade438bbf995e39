import { merge } from 'allof-merge';
import { isObject, type Json, type JsonObject, mapValues, objectAt, operationsOf } from './json';
import { Undecidable } from './undecidable';

/** Synthetic paths for an operation's parameters and for a webhook, in the document openapi-diff compares. */
export const PARAMETERS_PREFIX = '/~parameters';
export const WEBHOOKS_PREFIX = '/~webhooks/';
/** The synthetic path of each response's headers. */
export const HEADERS_PREFIX = '/~headers';

/** The value a local `$ref` (`#/components/schemas/Pet`) points at. */
function resolvePointer(document: JsonObject, ref: string): Json | undefined {
  if (!ref.startsWith('#/')) {
    throw new Undecidable(`$ref ${ref} names another document, which the gate does not read: compare one self-contained document (npx redocly bundle)`);
  }
  let node: Json | undefined = document;
  for (const part of ref.slice(2).split('/')) node = isObject(node) ? node[part.replaceAll('~1', '/').replaceAll('~0', '~')] : undefined;
  return node;
}

// Keywords whose value is data, not a schema: a `$ref` key in one is not a reference.
const VALUES = new Set(['example', 'examples', 'enum', 'const', 'default']);

/** Every `$ref` replaced by what it names, except a reference back into itself. */
export function inlineSchema(schema: Json, document: JsonObject, seen: readonly string[] = []): Json {
  if (Array.isArray(schema)) return schema.map((entry) => inlineSchema(entry, document, seen));
  if (!isObject(schema)) return schema;
  const { $ref, ...siblings } = schema;
  if (typeof $ref === 'string' && !seen.includes($ref)) {
    const target = resolvePointer(document, $ref);
    if (!isObject(target)) throw new Error(`${$ref} names nothing`);
    return inlineSchema({ ...target, ...siblings }, document, [...seen, $ref]);
  }
  return mapValues(schema, (value, key) => (VALUES.has(key) ? value : inlineSchema(value, document, seen)));
}

/**
 * The service refuses properties and query parameters it does not know (docs/api.md), so a request's objects are
 * closed: left open, a new optional field would read as a narrowing.
 */
export function closeObjects(schema: Json): Json {
  if (!isObject(schema)) return schema;
  const closed = mapValues(schema, (value, key) => {
    if (key === 'properties' && isObject(value)) return mapValues(value, closeObjects);
    if ((key === 'items' || key === 'additionalProperties') && isObject(value)) return closeObjects(value);
    return value;
  });
  const combined = ['allOf', 'anyOf', 'oneOf'].some((key) => key in closed);
  if (isObject(closed.properties) && closed.additionalProperties === undefined && !combined) closed.additionalProperties = false;
  return closed;
}

/**
 * Merges `allOf`, so that the same constraints compare the same however they are split, and a request's objects can be
 * closed. Contradicting members are left as written.
 */
export function allOfMerged(schema: Json): Json {
  let conflict = false;
  const merged = merge(schema, { onMergeError: () => (conflict = true) }) as Json | undefined;
  return conflict || merged === undefined ? schema : merged;
}

const inlineContent = (content: Json | undefined, document: JsonObject, close: boolean): JsonObject =>
  mapValues(isObject(content) ? content : {}, (media) => {
    if (!isObject(media) || media.schema === undefined) return media;
    const schema = allOfMerged(inlineSchema(media.schema, document));
    return { ...media, schema: close ? closeObjects(schema) : schema };
  });

/** Where a parameter goes and its name (a header's in lower case); a path parameter's name is not on the wire. */
export function parameterKey(parameter: JsonObject, path: string): string {
  const name = String(parameter.name);
  if (parameter.in === 'path') return `path #${[...path.matchAll(/\{([^}]+)\}/g)].findIndex(([, found]) => found === name) + 1}`;
  return `${String(parameter.in)} ${parameter.in === 'header' ? name.toLowerCase() : name}`;
}

/** Includes the path item's parameters, which the operation may override. */
export function operationParameters(path: string, item: JsonObject, operation: JsonObject, document: JsonObject): Map<string, JsonObject> {
  const all = [item.parameters, operation.parameters]
    .flatMap((list) => (Array.isArray(list) ? list : []))
    .map((parameter) => inlineSchema(parameter, document))
    .filter(isObject);
  return new Map(all.map((parameter) => [parameterKey(parameter, path), parameter]));
}

/** One closed object, so that parameters are decided as a body is. */
function parametersSchema(path: string, item: JsonObject, operation: JsonObject, document: JsonObject): JsonObject {
  const byKey = operationParameters(path, item, operation, document);
  const required = [...byKey].filter(([, parameter]) => parameter.required === true || parameter.in === 'path').map(([key]) => key);
  return {
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(
      [...byKey].map(([key, parameter]) => {
        const schema = closeObjects(schemaOf(parameter));
        return [key, parameter.deprecated === true && isObject(schema) ? { ...schema, deprecated: true } : schema];
      }),
    ),
    // OpenAPI 3.0 refuses an empty list.
    ...(required.length > 0 ? { required } : {}),
  };
}

const OK = { description: 'compared' };

/** Its `schema`, or that of the one media type of its `content`. */
const schemaOf = (entry: JsonObject): Json => allOfMerged(entry.schema ?? Object.values(objectAt(entry, 'content')).map((media) => objectAt(media, 'schema'))[0] ?? {});

/**
 * An open object, names in lower case as HTTP compares them: a header removed or widened is then a response widened,
 * one added a narrowing.
 */
function headersSchema(headers: JsonObject, document: JsonObject): JsonObject {
  const byName = Object.entries(headers).flatMap(([name, header]) => {
    const inlined = header === undefined ? undefined : inlineSchema(header, document);
    if (!isObject(inlined)) return [];
    return [[name.toLowerCase(), { schema: schemaOf(inlined), required: inlined.required === true }] as const];
  });
  const required = byName.filter(([, header]) => header.required).map(([name]) => name);
  return {
    type: 'object',
    properties: Object.fromEntries(byName.map(([name, header]) => [name, header.schema])),
    ...(required.length > 0 ? { required } : {}),
  };
}

/** openapi-diff reads only whether a header is there, but decides a body's schema, so headers are laid out as one. */
function headersLaidOut(paths: JsonObject, document: JsonObject): JsonObject {
  const laidOut: JsonObject = { ...paths };
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item) || path.startsWith(PARAMETERS_PREFIX)) continue;
    const withoutHeaders: JsonObject = {};
    const synthetic: JsonObject = {};
    for (const [method, operation] of operationsOf(item)) {
      const responses = objectAt(operation, 'responses');
      withoutHeaders[method] = { ...operation, responses: mapValues(responses, (response) => (isObject(response) ? withoutKey(response, 'headers') : response)) };
      synthetic[method] = {
        responses: mapValues(responses, (response) => ({ ...OK, content: { 'application/json': { schema: headersSchema(objectAt(response, 'headers'), document) } } })),
      };
    }
    laidOut[path] = withoutHeaders;
    laidOut[`${HEADERS_PREFIX}${path}`] = synthetic;
  }
  return laidOut;
}

const withoutKey = (object: JsonObject, key: string): JsonObject => Object.fromEntries(Object.entries(object).filter(([name]) => name !== key));

/** Resolves a `$ref` to `#/components/pathItems/…` (OpenAPI 3.1), the item's own fields winning. */
function pathItem(item: Json, document: JsonObject): Json {
  if (!isObject(item) || typeof item.$ref !== 'string') return item;
  const { $ref, ...own } = item;
  const target = resolvePointer(document, $ref);
  if (!isObject(target)) throw new Error(`${$ref} names nothing`);
  return { ...target, ...own };
}

/** Path items and webhooks given as a `$ref` resolved, for every rule. */
export function withPathItemsResolved(document: JsonObject): JsonObject {
  const resolved = (key: string) => (isObject(document[key]) ? { [key]: mapValues(document[key], (item) => pathItem(item, document)) } : {});
  return { ...document, ...resolved('paths'), ...resolved('webhooks') };
}

/**
 * The document as the gate compares it, still in OpenAPI 3.1: schemas inlined, request bodies closed, and parameters,
 * response headers and webhooks laid out as bodies, which openapi-diff decides in full.
 */
export function comparableDocument(document: JsonObject): JsonObject {
  const paths: JsonObject = {};
  for (const [path, item] of Object.entries(objectAt(document, 'paths'))) {
    if (!isObject(item)) continue;
    const compared: JsonObject = {};
    for (const [method, operation] of operationsOf(item)) {
      const { parameters: _parameters, ...rest } = operation;
      const requestBody = isObject(rest.requestBody) ? (inlineSchema(rest.requestBody, document) as JsonObject) : undefined;
      compared[method] = {
        ...rest,
        ...(requestBody ? { requestBody: { ...requestBody, content: inlineContent(requestBody.content, document, true) } } : {}),
        responses: mapValues(objectAt(rest, 'responses'), (response) => {
          const inlined = inlineSchema(response, document);
          return isObject(inlined) ? { ...inlined, content: inlineContent(inlined.content, document, false) } : inlined;
        }),
      };
      // Even an operation without parameters has its (empty) object, so that a first required one is a narrowing.
      const schema = parametersSchema(path, item, operation, document);
      const synthetic = objectAt(paths, `${PARAMETERS_PREFIX}${path}`);
      synthetic[method] = { requestBody: { content: { 'application/json': { schema } } }, responses: { 200: OK } };
      paths[`${PARAMETERS_PREFIX}${path}`] = synthetic;
    }
    paths[path] = compared;
  }
  for (const [name, item] of Object.entries(objectAt(document, 'webhooks'))) {
    if (!isObject(item)) continue;
    for (const [, operation] of operationsOf(item)) {
      const body = inlineSchema(operation.requestBody ?? {}, document);
      const headers = (Array.isArray(operation.parameters) ? operation.parameters : [])
        .map((parameter) => inlineSchema(parameter, document))
        .filter((parameter): parameter is JsonObject => isObject(parameter) && parameter.in === 'header')
        .map((parameter) => [String(parameter.name), { required: parameter.required === true, schema: schemaOf(parameter) }]);
      const response = { ...OK, content: inlineContent(objectAt(body, 'content'), document, false), headers: Object.fromEntries(headers) };
      paths[`${WEBHOOKS_PREFIX}${name}`] = { get: { ...(operation.deprecated === true ? { deprecated: true } : {}), responses: { 200: response } } };
    }
  }
  const { webhooks: _webhooks, ...rest } = document;
  return { ...rest, paths: headersLaidOut(paths, document) };
}
