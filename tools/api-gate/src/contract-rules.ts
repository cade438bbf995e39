import { type Finding, operationLabel, requestBodyLabel, responseLabel } from './finding';
import { isObject, type Json, type JsonObject, objectAt, operationsOf } from './json';

/** A request is what clients send (narrowing it breaks them); a response is what they read (widening it does). */
type Direction = 'request' | 'response';

// Keywords json-schema-diff (inside openapi-diff) does not read, whose presence narrows what a schema allows.
const NARROWING_KEYWORDS = ['pattern', 'format', 'multipleOf', 'uniqueItems'];

const show = (value: Json | undefined) => JSON.stringify(value);
const at = (field: string) => (field ? `${field}: ` : '');

/**
 * Narrowing a request or widening a response breaks clients. `narrowed` and `widened` are both true when the change
 * cannot be told either way (a pattern replaced).
 */
const breaks = (direction: Direction, narrowed: boolean, widened: boolean) => (direction === 'request' ? narrowed : widened);

function enumChanges(before: JsonObject, after: JsonObject, direction: Direction, field: string): Array<[boolean, string]> {
  const [old, now] = [before.enum, after.enum];
  if (!Array.isArray(old) && !Array.isArray(now)) return [];
  if (!Array.isArray(now)) return [[breaks(direction, false, true), `${at(field)}enum dropped: any value allowed`]];
  if (!Array.isArray(old)) return [[breaks(direction, true, false), `${at(field)}enum ${show(now)} added`]];
  const [oldValues, newValues] = [old.map(show), now.map(show)];
  return [
    ...oldValues.filter((value) => !newValues.includes(value)).map((value): [boolean, string] => [true, `${at(field)}enum value ${value} removed`]),
    // Zalando's rule 107: a value added to a response's enum reaches clients that do not know it.
    ...newValues
      .filter((value) => !oldValues.includes(value))
      .map((value): [boolean, string] => [direction === 'response', `${at(field)}enum value ${value} added${direction === 'response' ? ' to a response' : ''}`]),
  ];
}

function keywordChanges(before: JsonObject, after: JsonObject, direction: Direction, field: string): Array<[boolean, string]> {
  const changes = enumChanges(before, after, direction, field);
  for (const keyword of NARROWING_KEYWORDS) {
    const [old, now] = [before[keyword], after[keyword]];
    if (show(old) === show(now)) continue;
    const narrowed = now !== undefined;
    const widened = old !== undefined;
    changes.push([breaks(direction, narrowed, widened), `${at(field)}${keyword} ${show(old) ?? 'none'} → ${show(now) ?? 'none'}`]);
  }
  // A client that leaves the field out now gets other behaviour; a default declared where there was none documents what
  // the release did unsaid.
  if (direction === 'request' && show(before.default) !== show(after.default)) {
    const [old, now] = [show(before.default), show(after.default)];
    const what = old === undefined ? `default ${now} declared` : now === undefined ? `default ${old} dropped` : `default ${old} → ${now}`;
    changes.push([old !== undefined, `${at(field)}${what}`]);
  }
  // Semver: deprecating something public is a minor version; it breaks nobody yet.
  if ((before.deprecated === true) !== (after.deprecated === true)) changes.push([false, `${at(field)}${after.deprecated === true ? 'deprecated' : 'no longer deprecated'}`]);
  if ((before.nullable === true) !== (after.nullable === true)) {
    const nowNullable = after.nullable === true;
    changes.push([breaks(direction, !nowNullable, nowNullable), `${at(field)}${nowNullable ? 'made nullable' : 'no longer nullable'}`]);
  }
  return changes;
}

/** Both schemas' subschemas at the same place (combinations by index). */
function pairs(before: JsonObject, after: JsonObject, field: string): Array<[JsonObject, JsonObject, string]> {
  const found: Array<[JsonObject, JsonObject, string]> = [];
  const [oldProperties, newProperties] = [objectAt(before, 'properties'), objectAt(after, 'properties')];
  for (const [name, old] of Object.entries(oldProperties)) {
    const now = newProperties[name];
    if (isObject(old) && isObject(now)) found.push([old, now, field ? `${field}.${name}` : name]);
  }
  for (const key of ['items', 'additionalProperties']) {
    const [old, now] = [before[key], after[key]];
    if (isObject(old) && isObject(now)) found.push([old, now, `${field}${key === 'items' ? '[]' : '.*'}`]);
  }
  for (const key of ['allOf', 'anyOf', 'oneOf']) {
    const [old, now] = [before[key], after[key]];
    if (!Array.isArray(old) || !Array.isArray(now)) continue;
    old.forEach((entry, index) => {
      const match = now[index];
      if (isObject(entry) && isObject(match)) found.push([entry, match, field]);
    });
  }
  return found;
}

/** The keywords openapi-diff leaves unread, through both schemas (already inlined by comparableDocument). */
function schemaFindings(before: JsonObject, after: JsonObject, direction: Direction, where: string, field = ''): Finding[] {
  return [
    ...keywordChanges(before, after, direction, field).map(([breaking, what]): Finding => ({
      severity: breaking ? 'breaking' : 'minor',
      where,
      what,
      by: 'rule:schema-keywords',
    })),
    ...pairs(before, after, field).flatMap(([old, now, path]) => schemaFindings(old, now, direction, where, path)),
  ];
}

/** Media types (openapi-diff reads `application/json` alone) and the schemas under each one both documents have. */
function contentFindings(before: JsonObject, after: JsonObject, direction: Direction, where: string): Finding[] {
  const [old, now] = [objectAt(before, 'content'), objectAt(after, 'content')];
  const findings: Finding[] = [];
  for (const media of Object.keys(old)) {
    if (!(media in now)) {
      const what = direction === 'request' ? `media type ${media} no longer accepted` : `media type ${media} no longer answered`;
      findings.push({ severity: 'breaking', where, what, by: 'rule:media-type' });
      continue;
    }
    const [oldSchema, newSchema] = [objectAt(old[media], 'schema'), objectAt(now[media], 'schema')];
    findings.push(...schemaFindings(oldSchema, newSchema, direction, `${where} (${media})`));
  }
  for (const media of Object.keys(now)) {
    if (!(media in old)) findings.push({ severity: 'minor', where, what: `media type ${media} added`, by: 'rule:media-type' });
  }
  return findings;
}

function requestFindings(before: JsonObject, after: JsonObject, where: string): Finding[] {
  const [old, now] = [before.requestBody, after.requestBody];
  if (!isObject(now)) return [];
  if (!isObject(old)) {
    return now.required === true ? [{ severity: 'breaking', where, what: 'a required request body added', by: 'rule:request-body' }] : [];
  }
  const findings = contentFindings(old, now, 'request', where);
  if (old.required !== true && now.required === true) findings.push({ severity: 'breaking', where, what: 'request body made required', by: 'rule:request-body' });
  if (old.required === true && now.required !== true) findings.push({ severity: 'minor', where, what: 'request body made optional', by: 'rule:request-body' });
  return findings;
}

/** Our rules, for what openapi-diff does not read (docs/releasing.md); both documents comparable, in OpenAPI 3.0. */
export function contractRuleFindings(released: JsonObject, current: JsonObject): Finding[] {
  const findings: Finding[] = [];
  const newPaths = objectAt(current, 'paths');
  for (const [path, item] of Object.entries(objectAt(released, 'paths'))) {
    if (!isObject(item)) continue;
    for (const [method, before] of operationsOf(item)) {
      const after = objectAt(newPaths[path], method);
      if (Object.keys(after).length === 0) continue;
      const operation = operationLabel(path, method);
      const body = requestBodyLabel(path, method);
      if ((before.deprecated === true) !== (after.deprecated === true)) {
        findings.push({ severity: 'minor', where: operation, what: after.deprecated === true ? 'deprecated' : 'no longer deprecated', by: 'rule:deprecated' });
      }
      findings.push(...requestFindings(before, after, body));
      const newResponses = objectAt(after, 'responses');
      for (const [status, response] of Object.entries(objectAt(before, 'responses'))) {
        if (isObject(response) && isObject(newResponses[status])) {
          findings.push(...contentFindings(response, newResponses[status], 'response', responseLabel(path, method, status)));
        }
      }
    }
  }
  return findings;
}
