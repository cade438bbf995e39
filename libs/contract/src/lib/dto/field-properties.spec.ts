import type { FieldSpec } from '../pet-field';
import { documentedProperty } from './field-properties';

const common = { label: 'Field', description: 'A field.' };
const EVERY_KIND: FieldSpec[] = [
  { kind: 'integer', min: 1, max: 9, ...common, example: 3 },
  { kind: 'text', minLength: 1, maxLength: 9, ...common },
  { kind: 'choice', values: ['a', 'b'], enumName: 'Letter', default: 'a', ...common, optional: true },
  { kind: 'date', ...common, optional: true },
];

describe(documentedProperty.name, () => {
  it.each(EVERY_KIND)('publishes a %s field with its description, bounds and whether it is required', (spec) => {
    const property = documentedProperty(spec) as Record<string, unknown>;
    expect(property).toMatchObject({ description: 'A field.', required: !spec.optional });
    // Every string bounded, as the document's OWASP lint asks (test/openapi-lint.spec.ts): by a length or its values.
    if (property.type === 'string' || property.enum) expect(property.maxLength ?? property.enum).toBeDefined();
    if (property.type === 'integer') expect(property).toMatchObject({ format: 'int64', minimum: 1, maximum: 9, example: 3 });
  });

  it('publishes a date as RFC 3339 full-date, ten characters of digits and dashes', () => {
    expect(documentedProperty(EVERY_KIND[3])).toMatchObject({ type: 'string', format: 'date', minLength: 10, maxLength: 10, pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' });
  });

  it('publishes a choice as its enum, with its default', () => {
    expect(documentedProperty(EVERY_KIND[2])).toMatchObject({ enum: ['a', 'b'], enumName: 'Letter', default: 'a', required: false });
  });
});
