import { isObject, type Json, type JsonObject, objectAt } from './json';

// The keywords json-schema-diff compares, whose change a person reads as "this field changed".
const BOUNDS = ['type', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength', 'minItems', 'maxItems', 'additionalProperties'];

const show = (value: Json | undefined) => (value === undefined ? 'none' : JSON.stringify(value));
const join = (field: string, name: string) => (field ? `${field}.${name}` : name);

/**
 * The fields behind a body's difference, named: openapi-diff says only that a body's set of values grew or shrank
 * (with a schema of the difference, hard to read), so the gate says which fields were removed, added, made required
 * or optional, or had a bound or type changed. Both schemas are inlined (comparableDocument).
 */
export function fieldChanges(before: Json | undefined, after: Json | undefined, field = ''): string[] {
  if (!isObject(before) || !isObject(after)) return [];
  const changes: string[] = [];
  for (const keyword of BOUNDS) {
    const [old, now] = [before[keyword], after[keyword]];
    if (keyword === 'additionalProperties' && (isObject(old) || isObject(now))) continue;
    if (show(old) !== show(now)) changes.push(`${field || 'the body'}: ${keyword} ${show(old)} → ${show(now)}`);
  }
  const [oldProperties, newProperties] = [objectAt(before, 'properties'), objectAt(after, 'properties')];
  const required = (schema: JsonObject) => (Array.isArray(schema.required) ? schema.required.map(String) : []);
  const [oldRequired, newRequired] = [required(before), required(after)];
  for (const name of Object.keys(oldProperties)) {
    if (!(name in newProperties)) changes.push(`${join(field, name)} removed`);
    else changes.push(...fieldChanges(oldProperties[name], newProperties[name], join(field, name)));
  }
  for (const name of Object.keys(newProperties)) {
    if (!(name in oldProperties)) changes.push(`${join(field, name)} added${newRequired.includes(name) ? ' as required' : ''}`);
  }
  for (const name of oldRequired) if (!newRequired.includes(name) && name in newProperties) changes.push(`${join(field, name)} made optional`);
  for (const name of newRequired) if (!oldRequired.includes(name) && name in oldProperties) changes.push(`${join(field, name)} made required`);
  changes.push(...fieldChanges(before.items, after.items, `${field}[]`));
  for (const key of ['allOf', 'anyOf', 'oneOf']) {
    const [old, now] = [before[key], after[key]];
    if (Array.isArray(old) && Array.isArray(now)) old.forEach((entry, index) => changes.push(...fieldChanges(entry, now[index], field)));
  }
  return changes;
}
