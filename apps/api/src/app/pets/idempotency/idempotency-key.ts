import { createHash } from 'node:crypto';
import { IDEMPOTENCY_KEY_LENGTH } from '@petstore/contract';

/** How long a key is remembered: a retry within this gets the original answer, a later one creates anew. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;

/** Visible ASCII characters (%x21-7E): no spaces, so repeated headers, joined with ", ", are refused too. */
const VALID_KEY = new RegExp(`^[\\x21-\\x7e]{${IDEMPOTENCY_KEY_LENGTH.min},${IDEMPOTENCY_KEY_LENGTH.max}}$`);

/** A create that carries an Idempotency-Key, as the stores keep it. */
export interface IdempotencyClaim {
  /** The API key's holder: keys are scoped to the caller, so two callers may use the same key. */
  holder: string;
  key: string;
  /** SHA-256 of the body in canonical JSON. */
  fingerprint: string;
  /** Epoch milliseconds. */
  createdAt: number;
}

export const isValidIdempotencyKey = (value: string): boolean => VALID_KEY.test(value);

/**
 * Equal JSON bodies get equal fingerprints whatever their key order or spacing: objects are written with
 * their keys sorted, everything else as JSON writes it.
 */
export function fingerprintOf(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}
