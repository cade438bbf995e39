import { isObject, type Json, type JsonObject, mapValues } from './json';

// Keywords whose value holds schemas, which are converted in turn.
const ONE_SCHEMA = new Set(['items', 'not', 'additionalProperties']);
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf']);
const SCHEMA_MAPS = new Set(['properties']);

/**
 * OpenAPI 3.0's keywords (openapi-diff validates against them) and the 3.1 ones toSchema30 rewrites into them.
 * Extensions (`x-…`) are read as no change.
 */
const READ = new Set([
  ...['title', 'description', 'default', 'example', 'examples', 'deprecated', 'readOnly', 'writeOnly', 'externalDocs', 'xml', 'discriminator'],
  ...['type', 'enum', 'const', 'nullable', 'format', 'pattern', 'multipleOf', 'uniqueItems', 'required'],
  ...['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties'],
  ...['properties', 'additionalProperties', 'items', 'allOf', 'anyOf', 'oneOf', 'not', '$ref', '$schema', '$comment'],
]);

/** A keyword the gate does not read is dropped by toSchema30, once unreadKeywordFindings has compared it as a value. */
export const isRead = (keyword: string) => READ.has(keyword) || keyword.startsWith('x-');

/** JSON Schema 2020-12's keywords in OpenAPI 3.0's spelling, or dropped where 3.0 has none. */
export function toSchema30(schema: Json): Json {
  // 3.1's boolean schemas: `true` allows anything, `false` nothing.
  if (schema === true) return {};
  if (schema === false) return { not: {} };
  if (!isObject(schema)) return schema;
  const out: JsonObject = mapValues(schema, (value, key) => {
    // 3.0 has `additionalProperties: false` too.
    if (ONE_SCHEMA.has(key)) return key === 'additionalProperties' && typeof value === 'boolean' ? value : toSchema30(value);
    if (SCHEMA_LISTS.has(key) && Array.isArray(value)) return value.map(toSchema30);
    if (SCHEMA_MAPS.has(key) && isObject(value)) return mapValues(value, toSchema30);
    return value;
  });
  // `type: [x, 'null']` is 3.0's `nullable: true`; several other types are an `anyOf` of each; `null` alone, null.
  if (out.type === 'null' || (Array.isArray(out.type) && out.type.length === 1 && out.type[0] === 'null')) {
    delete out.type;
    Object.assign(out, { nullable: true, enum: [null] });
  } else if (Array.isArray(out.type)) {
    const types = out.type.filter((type) => type !== 'null');
    if (types.length < out.type.length) out.nullable = true;
    delete out.type;
    if (types.length === 1) out.type = types[0];
    else if (types.length > 1) {
      const alternatives = types.map((type) => ({ type }));
      if (out.anyOf === undefined) out.anyOf = alternatives;
      else out.allOf = [...(Array.isArray(out.allOf) ? out.allOf : []), { anyOf: alternatives }];
    }
  }
  nullBranchesAsNullable(out);
  enumBranchesAsEnum(out);
  if ('const' in out) {
    out.enum = [out.const ?? null];
    delete out.const;
  }
  if (Array.isArray(out.examples)) {
    if (out.example === undefined && out.examples.length > 0) out.example = out.examples[0];
    delete out.examples;
  }
  // 3.1's exclusive bounds are numbers; 3.0's are flags on minimum and maximum.
  for (const [exclusive, bound] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const) {
    if (typeof out[exclusive] === 'number') {
      out[bound] = out[exclusive];
      out[exclusive] = true;
    }
  }
  for (const keyword of Object.keys(out)) if (!isRead(keyword) || keyword === '$schema' || keyword === '$comment') delete out[keyword];
  return out;
}

/** `{type: 'null'}` as toSchema30 writes it. */
const onlyNull = (schema: Json) => isObject(schema) && schema.nullable === true && JSON.stringify(schema.enum) === '[null]' && schema.type === undefined;

/**
 * A `{type: 'null'}` branch is 3.0's `nullable: true` (openapi-diff refuses a null type). A single branch left is the
 * schema itself, so that a field made nullable this way compares as the same field.
 */
function nullBranchesAsNullable(schema: JsonObject): void {
  for (const key of ['anyOf', 'oneOf']) {
    const branches = schema[key];
    if (!Array.isArray(branches) || !branches.some(onlyNull)) continue;
    const others = branches.filter((branch) => !onlyNull(branch));
    schema.nullable = true;
    delete schema[key];
    if (others.length === 1 && isObject(others[0])) mergeInto(schema, others[0]);
    else if (others.length > 0) schema[key] = others;
  }
}

const ANNOTATIONS = new Set(['title', 'description', 'example', 'examples', 'deprecated']);
/** A branch that is only a set of values (an enum, or a const written as one), maybe typed and described. */
const valueSet = (branch: Json): branch is JsonObject & { enum: Json[] } =>
  isObject(branch) && Array.isArray(branch.enum) && Object.keys(branch).every((keyword) => keyword === 'enum' || keyword === 'type' || ANNOTATIONS.has(keyword));

/**
 * Branches that are all value sets of one type are the enum of their values, so that a narrowed or widened enum
 * compares value by value instead of as an enum dropped.
 */
function enumBranchesAsEnum(schema: JsonObject): void {
  for (const key of ['anyOf', 'oneOf']) {
    const branches = schema[key];
    if (!Array.isArray(branches) || branches.length === 0 || !branches.every(valueSet) || 'enum' in schema) continue;
    const types = [...new Set(branches.map((branch) => branch.type).filter((type) => type !== undefined).map((type) => JSON.stringify(type)))];
    if (types.length > 1) continue;
    const values = new Map(branches.flatMap((branch) => branch.enum.map((value): [string, Json] => [JSON.stringify(value), value])));
    delete schema[key];
    if (types.length === 1 && schema.type === undefined) schema.type = JSON.parse(types[0]) as Json;
    schema.enum = [...values.values()];
  }
}

/** A lone branch's keywords added to the schema it stood in; the schema's own win. */
function mergeInto(schema: JsonObject, branch: JsonObject): void {
  for (const [keyword, value] of Object.entries(branch)) if (!(keyword in schema)) schema[keyword] = value;
}

/** Wherever OpenAPI puts a schema (`schema`, `components.schemas`). */
function convertSchemasIn(node: Json, key = ''): Json {
  if (Array.isArray(node)) return node.map((entry) => convertSchemasIn(entry));
  if (!isObject(node)) return node;
  if (key === 'schema') return toSchema30(node);
  if (key === 'schemas') return mapValues(node, toSchema30);
  // Examples are data, not description: a `schema` key in one is not a schema.
  return mapValues(node, (value, child) => (child === 'example' || child === 'examples' ? value : convertSchemasIn(value, child)));
}

/**
 * The document in OpenAPI 3.0.3, since openapi-diff's parser refuses `openapi: 3.1.0`. Only what 3.0 has no place for
 * is dropped (`webhooks` are already paths, by `comparableDocument`).
 */
export function toOpenApi30(document: JsonObject): JsonObject {
  const { webhooks: _webhooks, jsonSchemaDialect: _dialect, ...rest } = document;
  const converted = convertSchemasIn(rest) as JsonObject;
  const info = isObject(converted.info) ? { ...converted.info } : {};
  delete info.summary;
  if (isObject(info.license)) {
    const { identifier: _identifier, ...license } = info.license;
    info.license = license;
  }
  const components = isObject(converted.components) ? { ...converted.components } : undefined;
  if (components) delete components.pathItems;
  return { ...converted, openapi: '3.0.3', info, ...(components ? { components } : {}) };
}
