import { allOfMerged, operationParameters } from './comparable-document';
import { type Finding, operationLabel } from './finding';
import { isObject, type Json, type JsonObject, objectAt } from './json';
import { servedOperations } from './path-parameter-rules';

// OpenAPI's defaults: `form` for query and cookie parameters, `simple` for path and header ones; `explode` for `form`.
const DEFAULT_STYLE: Record<string, string> = { query: 'form', cookie: 'form', path: 'simple', header: 'simple' };

/** Whether a schema's values are arrays or objects: only theirs are written differently by `explode` and most styles. */
function structured(schema: Json): boolean {
  if (!isObject(schema)) return false;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return types.includes('array') || types.includes('object') || 'items' in schema || 'properties' in schema;
}

/**
 * How a client writes a parameter's value on the wire. A single value is written the same by every style of its place
 * but `label` and `matrix`, so that only a change a client's request would show is one.
 */
function wireForm(parameter: JsonObject): string {
  if (isObject(parameter.content)) return `as ${Object.keys(parameter.content).join(', ')}`;
  const place = DEFAULT_STYLE[String(parameter.in)] ?? 'simple';
  const style = typeof parameter.style === 'string' ? parameter.style : place;
  const reserved = parameter.allowReserved === true ? ', reserved characters left as they are' : '';
  if (!structured(allOfMerged(parameter.schema ?? {}))) return `${style === 'label' || style === 'matrix' ? style : place}${reserved}`;
  const explode = typeof parameter.explode === 'boolean' ? parameter.explode : style === 'form';
  return `${style}${explode ? ', exploded' : ''}${reserved}`;
}

/**
 * A parameter serialized another way (`?tags=a&tags=b` becoming `?tags=a,b`): a client generated from the release
 * sends what the service no longer reads. openapi-diff compares parameters' schemas only (docs/releasing.md).
 */
export function parameterStyleFindings(released: JsonObject, current: JsonObject): Finding[] {
  return servedOperations(released, current).flatMap(({ path, servedAt, method, before, after }) => {
    const old = operationParameters(path, objectAt(objectAt(released, 'paths'), path), before, released);
    const now = operationParameters(servedAt, objectAt(objectAt(current, 'paths'), servedAt), after, current);
    return [...old].flatMap(([key, parameter]): Finding[] => {
      const match = now.get(key);
      if (!match || wireForm(parameter) === wireForm(match)) return [];
      const what = `${key}: sent as ${wireForm(parameter)} → ${wireForm(match)}`;
      return [{ severity: 'breaking', where: `${operationLabel(path, method)} parameters`, what, by: 'rule:parameter-style' }];
    });
  });
}
