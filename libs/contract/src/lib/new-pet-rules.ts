import { MAX_ID, NAME_LENGTH } from './interface';
import type { NewPet } from './pet';
import { PET_STATUSES, type PetStatus } from './pet-status';

// The rules of a new pet's fields, defined once and free of decorators: the service's validators
// (dto/validators.ts) apply them to every request, and a browser form applies the same ones as a person types, in
// the same words.

/** A field's rule: what it accepts, and the sentence that refuses anything else, naming the field. */
export interface FieldRule {
  accepts(value: unknown): boolean;
  refusal(field: string): string;
}

/** Counts Unicode code points, not UTF-16 units: "🐈" is one character. */
export function codePointLength(value: string): number {
  let length = 0;
  for (const _ of value) length += 1;
  return length;
}

export function isPetName(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const length = codePointLength(value);
  // NUL and unpaired surrogates (JSON allows "\ud800") are refused here, on every database alike: PostgreSQL cannot
  // store NUL in text, and neither database can store a lone surrogate, which would come back as U+FFFD.
  return length >= NAME_LENGTH.min && length <= NAME_LENGTH.max && /\S/u.test(value) && !value.includes('\u0000') && !/\p{Cs}/u.test(value);
}

export function isSafeId(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 1 && value <= MAX_ID;
}

export function isPetStatus(value: unknown): value is PetStatus {
  return (PET_STATUSES as readonly unknown[]).includes(value);
}

/** A required string of 1 to 100 code points that contains a non-whitespace character. */
export const PET_NAME_RULE: FieldRule = {
  accepts: isPetName,
  refusal: (field) =>
    `${field} is required and must be a string of ${NAME_LENGTH.min} to ${NAME_LENGTH.max} characters that is not only whitespace and has no NUL character or unpaired surrogate`,
};

/** A required JSON integer from 1 to 2^53 - 1 (never a string, never a fraction). */
export const SAFE_ID_RULE: FieldRule = {
  accepts: isSafeId,
  refusal: (field) => `${field} is required and must be an integer from 1 to ${MAX_ID}`,
};

/** One of the PetStatus values. */
export const PET_STATUS_RULE: FieldRule = {
  accepts: isPetStatus,
  refusal: (field) => `${field} must be one of ${PET_STATUSES.join(', ')}`,
};

/** What the service refuses in a new pet's fields, by field, in its own words; empty when it would accept them. */
export type NewPetProblems = Partial<Record<keyof NewPet, string>>;

/**
 * The problems of a new pet's fields, in the order the service reports them (name, categoryId, status): the same
 * sentences as its 400 `validation_failed` message, which joins them with "; ". `status` may be left out.
 */
export function newPetProblems(pet: { readonly [F in keyof NewPet]?: unknown }): NewPetProblems {
  const problems: NewPetProblems = {};
  if (!PET_NAME_RULE.accepts(pet.name)) problems.name = PET_NAME_RULE.refusal('name');
  if (!SAFE_ID_RULE.accepts(pet.categoryId)) problems.categoryId = SAFE_ID_RULE.refusal('categoryId');
  if (pet.status !== undefined && !PET_STATUS_RULE.accepts(pet.status)) problems.status = PET_STATUS_RULE.refusal('status');
  return problems;
}
