import type { ValueTransformer } from 'typeorm';

/**
 * PostgreSQL returns 64-bit integers as strings. This is the one place where they become numbers: exactly, or
 * not at all. A value beyond 2^53 - 1 is refused rather than silently rounded to a neighbouring id.
 */
export function toSafeInteger(value: unknown): number {
  const number = typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isSafeInteger(number)) {
    throw new RangeError(`Stored integer ${String(value)} is outside JavaScript's safe range`);
  }
  return number;
}

/** Column transformer for 64-bit integer columns. */
export const safeInteger: ValueTransformer = {
  from: (value: unknown) => (value === null || value === undefined ? value : toSafeInteger(value)),
  to: (value: unknown) => value,
};
