/** A parsed JSON value: what the gate reads an OpenAPI document as, keyword by keyword. */
export type Json = null | boolean | number | string | Json[] | JsonObject;
export interface JsonObject {
  [key: string]: Json | undefined;
}

export const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The object at `key`, or an empty one: documents leave out what they do not use. */
export const objectAt = (node: Json | undefined, key: string): JsonObject => {
  const value = isObject(node) ? node[key] : undefined;
  return isObject(value) ? value : {};
};

export const mapValues = (object: JsonObject, map: (value: Json, key: string) => Json): JsonObject =>
  Object.fromEntries(Object.entries(object).flatMap(([key, value]) => (value === undefined ? [] : [[key, map(value, key)]])));

/** The HTTP methods a path item may hold (its other keys are parameters, servers, a summary…). */
export const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** Each operation of a path item, with its method. */
export const operationsOf = (item: JsonObject): Array<[method: string, operation: JsonObject]> =>
  METHODS.flatMap((method) => {
    const operation = item[method];
    return isObject(operation) ? [[method, operation] as [string, JsonObject]] : [];
  });
