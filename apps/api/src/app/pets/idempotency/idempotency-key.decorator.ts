import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { validationFailed } from '../../errors/api-exception';
import { REPEATED, singleHeader } from '../../http/single-header';
import { isValidIdempotencyKey } from './idempotency-key';

/** The optional Idempotency-Key header of createPet: absent is fine, anything but 1–255 visible ASCII once is a 400. */
export const IdempotencyKeyHeader = createParamDecorator((_data: unknown, context: ExecutionContext): string | undefined => {
  const value = singleHeader(context.switchToHttp().getRequest<FastifyRequest>().raw.rawHeaders, 'idempotency-key');
  if (value === undefined || (value !== REPEATED && isValidIdempotencyKey(value))) return value;
  throw invalidIdempotencyKey(value);
});

export const invalidIdempotencyKey = (value: string | typeof REPEATED) =>
  validationFailed(`Invalid Idempotency-Key header: ${problemWith(value)}; it must be 1 to 255 visible ASCII characters, without spaces.`);

function problemWith(value: string | typeof REPEATED): string {
  if (value === REPEATED) return 'it was sent more than once';
  if (value === '') return 'it is empty';
  if (value.length > 255) return `it has ${value.length} characters`;
  return 'it has characters other than visible ASCII';
}
