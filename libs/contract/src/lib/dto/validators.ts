import { registerDecorator } from 'class-validator';
import { type FieldRule, LIST_LIMIT_RULE } from '../new-pet-rules';

/**
 * A property decorator applying a contract rule (new-pet-rules.ts) with the sentence that names the property, so that
 * a single validation pass reports every invalid field once, in words a person can act on.
 */
export function followsRule({ accepts, refusal }: FieldRule): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'followsContractRule',
      target: target.constructor,
      propertyName: propertyName as string,
      validator: {
        validate: (value: unknown) => accepts(value),
        defaultMessage: (args) => refusal(args?.property ?? String(propertyName), args?.value),
      },
    });
}

/** listPets' `limit`: a whole number from 1 to 100; query strings carry it as base-10 digits. */
export const IsListLimit = (): PropertyDecorator => followsRule(LIST_LIMIT_RULE);
