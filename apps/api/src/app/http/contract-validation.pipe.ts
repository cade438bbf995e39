import { Injectable, type ArgumentMetadata, type PipeTransform } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import { validationFailed } from '../errors/api-exception';

const WHERE = { body: ['Invalid request body', 'field'], query: ['Invalid query parameters', 'query parameter'] } as const;

/**
 * Validates bodies and queries against the contract's classes: no type coercion, unknown properties refused, every
 * problem in one sentence. Anything else passes through synchronously: Nest runs this global pipe on every parameter.
 */
@Injectable()
export class ContractValidationPipe implements PipeTransform {
  transform(value: unknown, { type, metatype }: ArgumentMetadata): unknown {
    if ((type !== 'body' && type !== 'query') || !metatype || metatype === Object) return value;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw invalidInput(type, ['it must be a JSON object']);
    }
    // Every query parameter is optional, so an empty query, the common case, is valid without a validation pass.
    if (type === 'query' && Object.keys(value).length === 0) return new (metatype as new () => object)();
    return validated(value, type, metatype as new () => object);
  }
}

/** The 400 for these problems of a body or query, each a sentence naming its field or parameter. */
export function invalidInput(type: 'body' | 'query', problems: readonly string[]) {
  return validationFailed(`${WHERE[type][0]}: ${problems.join('; ')}.`);
}

/** The 400 that refuses the given unknown properties of a body or query. */
export function unknownInput(type: 'body' | 'query', keys: readonly string[]) {
  return invalidInput(type, keys.map((key) => unknownProperty(key, WHERE[type][1])));
}

function validated(value: object, type: 'body' | 'query', metatype: new () => object): object {
  const noun = WHERE[type][1];
  const keys = Object.keys(value);
  const instance = plainToInstance(metatype, value, { enableImplicitConversion: false }) as object;
  // class-transformer silently drops every key the instance inherits (`__proto__`, `constructor`…), which would hide
  // them from the unknown-property check.
  const skipped = keys.filter((key) => !Object.hasOwn(instance, key));
  // The contract's constraints are all synchronous: validate() would only add promises.
  const errors = validateSync(instance, {
    whitelist: true,
    forbidNonWhitelisted: true,
    // transform() has refused non-objects already, which is all this would add.
    forbidUnknownValues: false,
    stopAtFirstError: true,
    validationError: { target: false, value: false },
  });
  const problems = [...skipped.map((key) => unknownProperty(key, noun)), ...errors.map((e) => describe(e, noun))];
  if (problems.length > 0) throw invalidInput(type, problems);
  return instance;
}

function describe(error: ValidationError, noun: string): string {
  const constraints = error.constraints ?? {};
  if ('whitelistValidation' in constraints) return unknownProperty(error.property, noun);
  return Object.values(constraints)[0] ?? `${error.property} is invalid`;
}

const unknownProperty = (property: string, noun: string) => `unknown ${noun} "${truncate(property)}" is not allowed`;

const truncate = (text: string) => (text.length > 64 ? `${text.slice(0, 64)}…` : text);
