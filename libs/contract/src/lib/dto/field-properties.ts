import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';
import { ValidateIf } from 'class-validator';
import { ruleOf } from '../new-pet-rules';
import type { FieldSpec } from '../pet-field';
import { type FilterSpec, filterFieldOf } from '../pet-filters';
import { followsRule } from './validators';

/** The document's schema of a field of this kind. */
export function documentedProperty(spec: FieldSpec): ApiPropertyOptions {
  const example = spec.example === undefined ? {} : { example: spec.example };
  // ApiPropertyOptions is a union by `type` that a spread of the kinds' schemas cannot be narrowed to.
  return { description: spec.description, required: !spec.optional, ...schemaOf(spec), ...example } as ApiPropertyOptions;
}

/**
 * The document's schema of a listPets filter: its field's, without the field's default (a filter left out filters
 * nothing) or example ("Try it out" would fill it in and filter a first look at the list).
 */
export function filterProperty(spec: FilterSpec): ApiPropertyOptions {
  const { default: _default, ...schema } = schemaOf(filterFieldOf(spec));
  return { description: spec.description, required: false, ...schema } as ApiPropertyOptions;
}

function schemaOf(spec: FieldSpec): Record<string, unknown> {
  switch (spec.kind) {
    case 'integer':
      return { type: 'integer', format: 'int64', minimum: spec.min, maximum: spec.max };
    case 'text':
      return { type: 'string', minLength: spec.minLength, maxLength: spec.maxLength };
    case 'choice':
      return { enum: [...spec.values], enumName: spec.enumName, ...(spec.default === undefined ? {} : { default: spec.default }) };
    case 'date':
      // Bounded and patterned as well as formatted: a linter (OWASP's string-limit) and a reader need not know `date`.
      return { type: 'string', format: 'date', minLength: 10, maxLength: 10, pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' };
  }
}

/**
 * Decorates `target`'s properties from a field list, as hand-written `@ApiProperty` and validation decorators would:
 * the document's schema, and the field's rule (an optional field only when sent). The properties' TypeScript types
 * come from the contract's interface, merged into the class.
 */
export function decorateFields(target: abstract new () => unknown, entries: ReadonlyArray<[string, FieldSpec]>): void {
  for (const [field, spec] of entries) {
    ApiProperty(documentedProperty(spec))(target.prototype, field);
    if (spec.optional) ValidateIf((_, value) => value !== undefined)(target.prototype, field);
    followsRule(ruleOf(spec))(target.prototype, field);
  }
}
