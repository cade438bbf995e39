import { Injectable, type PipeTransform } from '@nestjs/common';
import { MAX_ID } from '@petstore/contract';
import { validationFailed } from '../errors/api-exception';
import { petNotFound } from './pet-errors';

const INT64_MAX = 2n ** 63n - 1n;

export const invalidPetId = () => validationFailed('Invalid path parameter: petId must be a base-10 integer (int64).');

/**
 * `petId` is an int64 in the interface. A base-10 integer that no pet can have (0, negative, or beyond the
 * safe range up to int64 max) is simply absent: 404. Anything else is a 400 naming the parameter.
 * ParseIntPipe is not used: it accepts "1e3" and rounds digits beyond 2^53.
 */
@Injectable()
export class PetIdPipe implements PipeTransform<string, number> {
  transform(raw: string): number {
    if (!/^-?[0-9]+$/.test(raw) || BigInt(raw) > INT64_MAX || BigInt(raw) < -INT64_MAX - 1n) {
      throw invalidPetId();
    }
    const id = Number(raw);
    if (id < 1 || id > MAX_ID) throw petNotFound(raw);
    return id;
  }
}
