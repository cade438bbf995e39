import { registerDecorator, type ValidationOptions } from 'class-validator';
import { MAX_ID, NAME_LENGTH } from '../interface';
import { PET_STATUSES } from '../pet-status';

// One decorator per field, each with a message that names the field and the rule, so that a single validation
// pass reports every invalid field once, in words a person can act on.

function rule(
  name: string,
  isValid: (value: unknown) => boolean,
  describe: (property: string) => string,
  options?: ValidationOptions,
): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name,
      target: target.constructor,
      propertyName: propertyName as string,
      options,
      validator: {
        validate: (value: unknown) => isValid(value),
        defaultMessage: (args) => describe(args?.property ?? String(propertyName)),
      },
    });
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

export function isPetStatus(value: unknown): boolean {
  return (PET_STATUSES as readonly unknown[]).includes(value);
}

/** A required string of 1 to 100 code points that contains a non-whitespace character. */
export const IsPetName = (): PropertyDecorator =>
  rule(
    'isPetName',
    isPetName,
    (p) =>
      `${p} is required and must be a string of ${NAME_LENGTH.min} to ${NAME_LENGTH.max} characters that is not only whitespace and has no NUL character or unpaired surrogate`,
  );

/** A required JSON integer from 1 to 2^53 - 1 (never a string, never a fraction). */
export const IsSafeId = (): PropertyDecorator =>
  rule('isSafeId', isSafeId, (p) => `${p} is required and must be an integer from 1 to ${MAX_ID}`);

/** One of the PetStatus values. */
export const IsPetStatus = (): PropertyDecorator =>
  rule('isPetStatus', isPetStatus, (p) => `${p} must be one of ${PET_STATUSES.join(', ')}`);

/** An integer written in base 10, within bounds; query strings carry numbers as text. */
export const IsIntegerInRange = (min: number, max: number): PropertyDecorator =>
  rule(
    'isIntegerInRange',
    (value) => typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max,
    (p) => `${p} must be an integer from ${min} to ${max}`,
  );
