import { type Finding, requestBodyLabel, responseLabel } from './finding';
import { isObject, type Json, type JsonObject, objectAt, operationsOf } from './json';
import { isRead } from './openapi-30';

const at = (field: string) => (field ? `${field}: ` : '');

/** Each unread keyword of a schema and its subschemas, by field and keyword (`tags[]: prefixItems`), with its value. */
function unreadIn(schema: Json | undefined, field: string, found: Map<string, Json>): void {
  if (!isObject(schema)) return;
  for (const [keyword, value] of Object.entries(schema)) {
    if (value !== undefined && !isRead(keyword)) found.set(`${at(field)}${keyword}`, value);
  }
  for (const [name, property] of Object.entries(objectAt(schema, 'properties'))) unreadIn(property, field ? `${field}.${name}` : name, found);
  unreadIn(schema.items, `${field}[]`, found);
  unreadIn(schema.additionalProperties, `${field}.*`, found);
  unreadIn(schema.not, `${field} (not)`, found);
  for (const key of ['allOf', 'anyOf', 'oneOf']) {
    const branches = schema[key];
    if (Array.isArray(branches)) branches.forEach((branch, index) => unreadIn(branch, `${field} (${key} #${index + 1})`, found));
  }
}

/** Every unread keyword of a comparable document's schemas, keyed by where it is: `GET /pets response 200 (application/json) → tags[]: prefixItems`. */
function unreadKeywords(document: JsonObject): Map<string, { where: string; keyword: string; value: Json }> {
  const found = new Map<string, { where: string; keyword: string; value: Json }>();
  const collect = (where: string, content: Json | undefined) => {
    for (const [media, entry] of Object.entries(isObject(content) ? content : {})) {
      const keywords = new Map<string, Json>();
      unreadIn(objectAt(entry, 'schema'), '', keywords);
      const place = `${where} (${media})`;
      for (const [keyword, value] of keywords) found.set(`${place} → ${keyword}`, { where: place, keyword, value });
    }
  };
  for (const [path, item] of Object.entries(objectAt(document, 'paths'))) {
    if (!isObject(item)) continue;
    for (const [method, operation] of operationsOf(item)) {
      collect(requestBodyLabel(path, method), objectAt(operation, 'requestBody').content);
      for (const [status, response] of Object.entries(objectAt(operation, 'responses'))) collect(responseLabel(path, method, status), objectAt(response, 'content'));
    }
  }
  return found;
}

/**
 * JSON Schema keywords the gate does not read (`prefixItems`, `if`/`then`/`else`, `patternProperties`,
 * `dependentRequired`, `unevaluatedProperties`, `contains`…), on both comparable documents: one written the same in
 * both is no change; one added, dropped or changed is a change the gate cannot weigh, so it refuses it, naming the
 * place, rather than answer "could not compare" or pass what it did not read.
 */
export function unreadKeywordFindings(released: JsonObject, current: JsonObject): Finding[] {
  const [before, after] = [unreadKeywords(released), unreadKeywords(current)];
  const show = (value: Json | undefined) => JSON.stringify(value);
  return [...new Set([...before.keys(), ...after.keys()])].flatMap((key): Finding[] => {
    const [old, now] = [before.get(key), after.get(key)];
    if (show(old?.value) === show(now?.value)) return [];
    const { where, keyword } = (old ?? now) as { where: string; keyword: string };
    const change = old === undefined ? 'added' : now === undefined ? 'removed' : `${show(old.value)} → ${show(now.value)}`;
    return [{ severity: 'undecided', where, what: `${keyword} ${change}: the gate does not read this keyword, so it cannot tell whether clients break`, by: 'rule:unread-keyword' }];
  });
}
