import { registerDecorator, type ValidationOptions } from 'class-validator';
import { type FieldRule, LIST_LIMIT_RULE, PET_NAME_RULE, PET_STATUS_RULE, SAFE_ID_RULE } from '../new-pet-rules';

// One decorator per field, each applying the field's rule (new-pet-rules.ts) with the sentence that names the field
// and the rule, so that a single validation pass reports every invalid field once, in words a person can act on.

function rule(name: string, { accepts, refusal }: FieldRule, options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name,
      target: target.constructor,
      propertyName: propertyName as string,
      options,
      validator: {
        validate: (value: unknown) => accepts(value),
        defaultMessage: (args) => refusal(args?.property ?? String(propertyName), args?.value),
      },
    });
}

/** A required string of 1 to 100 code points that contains a non-whitespace character. */
export const IsPetName = (): PropertyDecorator => rule('isPetName', PET_NAME_RULE);

/** A required JSON integer from 1 to 2^53 - 1 (never a string, never a fraction). */
export const IsSafeId = (): PropertyDecorator => rule('isSafeId', SAFE_ID_RULE);

/** One of the PetStatus values. */
export const IsPetStatus = (): PropertyDecorator => rule('isPetStatus', PET_STATUS_RULE);

/** listPets' `limit`: a whole number from 1 to 100; query strings carry it as base-10 digits. */
export const IsListLimit = (): PropertyDecorator => rule('isListLimit', LIST_LIMIT_RULE);
