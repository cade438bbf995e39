import { LIST_LIMIT, MAX_ID } from './interface';
import { type NewPet, PET_FIELDS } from './pet';
import { type FieldKind, type FieldList, sentFieldEntries } from './pet-field';
import type { PetStatus } from './pet-status';

// The rules of a new pet's fields (one per kind of field, pet-field.ts) and of listPets' limit, free of decorators:
// the service's validators (dto/) apply them to every request, and a browser form or the CLI applies the same ones
// before sending. A rule says what is wrong as a FieldProblem; the service puts it in its words (describeProblem),
// and an app for people may put the same problem in words of its own.

/** Why a value is refused: one of a closed set, with what the words need to say it. */
export type FieldProblem =
  | { readonly kind: 'missing' }
  | { readonly kind: 'notString' }
  | { readonly kind: 'blank' }
  | { readonly kind: 'tooLong'; readonly max: number; readonly length: number }
  | { readonly kind: 'tooShort'; readonly min: number; readonly length: number }
  | { readonly kind: 'nulCharacter' }
  /** A C0 or C1 control character (U+0000-U+001F, U+007F-U+009F): a search term holds none. */
  | { readonly kind: 'controlCharacter' }
  | { readonly kind: 'unpairedSurrogate' }
  /** Not a whole number at all; `quoted` when a JSON string was sent where a JSON number belongs. */
  | { readonly kind: 'notWholeNumber'; readonly min: number; readonly max: number; readonly quoted: boolean }
  | { readonly kind: 'outOfRange'; readonly min: number; readonly max: number }
  | { readonly kind: 'notOneOf'; readonly values: readonly string[] }
  /** Not a calendar day written YYYY-MM-DD. */
  | { readonly kind: 'notDate' }
  /** A character outside the set the value is written in: visible ASCII (%x21-7E), or base64url's A-Z a-z 0-9 _ -. */
  | { readonly kind: 'disallowedCharacters'; readonly allowed: 'visibleAscii' | 'base64url' };

/** A field's rule: what it refuses and why; the service's sentence names the field. */
export interface FieldRule {
  /** Why `value` is refused, or `undefined` when it is accepted. */
  check(value: unknown): FieldProblem | undefined;
  accepts(value: unknown): boolean;
  /** The service's sentence refusing `value`, naming `field`, e.g. "categoryId must be a whole number from 1 to …". */
  refusal(field: string, value: unknown): string;
}

/**
 * The service's words for a problem with `field`: "is required" only when it is missing, otherwise what the value must
 * be. These are the sentences of a 400 `validation_failed` message, joined with "; ".
 */
export function describeProblem(field: string, problem: FieldProblem): string {
  switch (problem.kind) {
    case 'missing':
      return `${field} is required`;
    case 'notString':
      return `${field} must be a string`;
    case 'blank':
      return `${field} must not be empty or only whitespace`;
    case 'tooLong':
      return `${field} must be at most ${problem.max} characters (it has ${problem.length})`;
    case 'tooShort':
      return `${field} must be at least ${problem.min} characters (it has ${problem.length})`;
    case 'nulCharacter':
      return `${field} must not contain the NUL character (\\u0000)`;
    case 'controlCharacter':
      return `${field} must not contain control characters (U+0000 to U+001F, U+007F to U+009F)`;
    case 'unpairedSurrogate':
      return `${field} must not contain an unpaired surrogate (a lone \\ud800-\\udfff escape is not a character)`;
    case 'notWholeNumber':
      return `${field} must be a whole number from ${problem.min} to ${problem.max}${problem.quoted ? ', sent as a JSON number, not a string' : ''}`;
    case 'outOfRange':
      return `${field} must be a whole number from ${problem.min} to ${problem.max}`;
    case 'notOneOf':
      return `${field} must be one of ${problem.values.join(', ')}`;
    case 'notDate':
      return `${field} must be a calendar date written YYYY-MM-DD, such as 2024-05-31`;
    case 'disallowedCharacters':
      return problem.allowed === 'visibleAscii'
        ? `${field} must contain only visible ASCII characters (! to ~, no spaces)`
        : `${field} must contain only the characters A-Z, a-z, 0-9, _ and -`;
  }
}

/** A rule made from its check: what it accepts and how the service refuses follow from it. */
export function fieldRule(check: (value: unknown) => FieldProblem | undefined): FieldRule {
  return {
    check,
    accepts: (value) => check(value) === undefined,
    refusal: (field, value) => {
      const problem = check(value);
      return problem ? describeProblem(field, problem) : `${field} is valid`;
    },
  };
}

/** Counts Unicode code points, not UTF-16 units: "🐈" is one character. */
export function codePointLength(value: string): number {
  let length = 0;
  for (const _ of value) length += 1;
  return length;
}

/**
 * Text of `minLength` to `maxLength` code points with a non-whitespace character, no lone surrogate, and no NUL, or,
 * with `noControlCharacters` (a search term, which no name a person types holds), no control character at all.
 */
export function textRule(minLength: number, maxLength: number, { noControlCharacters = false } = {}): FieldRule {
  return fieldRule((value) => {
    if (value === undefined) return { kind: 'missing' };
    if (typeof value !== 'string') return { kind: 'notString' };
    if (!/\S/u.test(value)) return { kind: 'blank' };
    const length = codePointLength(value);
    if (length > maxLength) return { kind: 'tooLong', max: maxLength, length };
    if (length < minLength) return { kind: 'tooShort', min: minLength, length };
    if (noControlCharacters && /\p{Cc}/u.test(value)) return { kind: 'controlCharacter' };
    // NUL and unpaired surrogates (JSON allows "\ud800") are refused here, on every database alike: PostgreSQL cannot
    // store NUL in text, and neither database can store a lone surrogate, which would come back as U+FFFD.
    if (value.includes('\u0000')) return { kind: 'nulCharacter' };
    if (/\p{Cs}/u.test(value)) return { kind: 'unpairedSurrogate' };
    return undefined;
  });
}

/**
 * A whole number from `min` to `max` that JavaScript holds exactly. `jsonNumber`: the value comes from JSON, where a
 * string is a mistake worth naming; a query parameter's digits are converted before the rule sees them.
 */
export function wholeNumberRule(min: number, max: number, { jsonNumber }: { jsonNumber: boolean }): FieldRule {
  return fieldRule((value) => {
    if (value === undefined) return { kind: 'missing' };
    if (typeof value !== 'number' || !Number.isInteger(value)) {
      return { kind: 'notWholeNumber', min, max, quoted: jsonNumber && typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)) };
    }
    if (value < min || value > max || !Number.isSafeInteger(value)) return { kind: 'outOfRange', min, max };
    return undefined;
  });
}

const choiceRule = (values: readonly string[]): FieldRule =>
  fieldRule((value) => ((values as readonly unknown[]).includes(value) ? undefined : { kind: 'notOneOf', values }));

/** A calendar day, YYYY-MM-DD, from 0001-01-01 (PostgreSQL has no year 0) to 9999-12-31. */
const DATE_RULE: FieldRule = fieldRule((value) => {
  if (value === undefined) return { kind: 'missing' };
  if (typeof value !== 'string') return { kind: 'notString' };
  const parts = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!parts) return { kind: 'notDate' };
  const [year, month, day] = parts.slice(1).map(Number);
  // setUTCFullYear, unlike Date.UTC, takes years below 100 as written; an impossible day rolls over and shows.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return year >= 1 && date.toISOString().startsWith(value) ? undefined : { kind: 'notDate' };
});

const rules = new WeakMap<FieldKind, FieldRule>();

/** The rule of a field of this kind, as a request's body sends it; made once per field. */
export function ruleOf(field: FieldKind): FieldRule {
  let rule = rules.get(field);
  // Stryker disable next-line ConditionalExpression: a cache; without it each call makes an equal rule again.
  if (!rule) rules.set(field, (rule = ruleOfKind(field)));
  return rule;
}

function ruleOfKind(field: FieldKind): FieldRule {
  switch (field.kind) {
    case 'integer':
      return wholeNumberRule(field.min, field.max, { jsonNumber: true });
    case 'text':
      return textRule(field.minLength, field.maxLength);
    case 'choice':
      return choiceRule(field.values);
    case 'date':
      return DATE_RULE;
  }
}

/** A required string of 1 to 100 code points that contains a non-whitespace character (no NUL, no lone surrogate). */
export const PET_NAME_RULE: FieldRule = ruleOf(PET_FIELDS.name);

/** A required JSON integer from 1 to 2^53 - 1 (never a string, never a fraction). */
export const SAFE_ID_RULE: FieldRule = wholeNumberRule(1, MAX_ID, { jsonNumber: true });

/** listPets' `limit`: a whole number from 1 to 100 (written in base 10 in the query). */
export const LIST_LIMIT_RULE: FieldRule = wholeNumberRule(LIST_LIMIT.min, LIST_LIMIT.max, { jsonNumber: false });

/** One of the PetStatus values. */
export const PET_STATUS_RULE: FieldRule = ruleOf(PET_FIELDS.status);

export function isPetName(value: unknown): value is string {
  return PET_NAME_RULE.accepts(value);
}

export function isSafeId(value: unknown): value is number {
  return SAFE_ID_RULE.accepts(value);
}

export function isPetStatus(value: unknown): value is PetStatus {
  return PET_STATUS_RULE.accepts(value);
}

/** What is wrong with a new pet's fields, by field, as problems an app may put in its own words. */
export type NewPetFieldProblems = Partial<Record<keyof NewPet, FieldProblem>>;

/** What the service refuses in a new pet's fields, by field, in its own words; empty when it would accept them. */
export type NewPetProblems = Partial<Record<keyof NewPet, string>>;

/** The problems of fields sent for `fields`, in the list's order; an optional field may be left out. */
export function fieldProblems<T>(fields: FieldList<T>, values: { readonly [F in keyof T]?: unknown }): Partial<Record<keyof T, FieldProblem>> {
  const problems: Partial<Record<keyof T, FieldProblem>> = {};
  for (const [field, spec] of sentFieldEntries(fields)) {
    const value = values[field];
    const problem = value === undefined && spec.optional ? undefined : ruleOf(spec).check(value);
    if (problem) problems[field] = problem;
  }
  return problems;
}

/** The problems of a new pet's fields, in the order the service reports them (the interface's: name, categoryId, …). */
export const newPetFieldProblems = (pet: { readonly [F in keyof NewPet]?: unknown }): NewPetFieldProblems =>
  fieldProblems(PET_FIELDS, pet) as NewPetFieldProblems;

/**
 * The problems of a new pet's fields in the service's words: the same sentences as its 400 `validation_failed`
 * message, which joins them with "; ". `status` may be left out.
 */
export function newPetProblems(pet: { readonly [F in keyof NewPet]?: unknown }): NewPetProblems {
  const problems: NewPetProblems = {};
  for (const [field, problem] of Object.entries(newPetFieldProblems(pet)) as Array<[keyof NewPet, FieldProblem]>) {
    problems[field] = describeProblem(field, problem);
  }
  return problems;
}
