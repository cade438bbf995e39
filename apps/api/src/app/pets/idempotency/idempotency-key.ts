import { createHash } from 'node:crypto';
import { IDEMPOTENCY_KEY_RULE } from '@petstore/contract';

/** How long a key is remembered: a retry within this gets the original answer, a later one creates anew. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;

/** An Idempotency-Key as sent, with who sent it. */
export interface IdempotencyRequest {
  /** The API key's holder: keys are scoped to the caller, so two callers may use the same key. */
  holder: string;
  key: string;
}

/** A create that carries an Idempotency-Key, as the stores keep it (idempotency-row.ts: its row). */
export interface IdempotencyClaim extends IdempotencyRequest {
  /** SHA-256 of the body in canonical JSON. */
  fingerprint: string;
  /** Epoch milliseconds. */
  createdAt: number;
}

/**
 * 1 to 255 visible ASCII characters (%x21-7E), the contract's rule, which the CLI checks before sending: no spaces, so
 * repeated headers, joined with ", ", are refused too.
 */
export const isValidIdempotencyKey = (value: string): boolean => IDEMPOTENCY_KEY_RULE.accepts(value);

/**
 * The claim of a create sent with a key. `body` is the body as sent, not as completed with defaults: a retry must send
 * an equal body.
 */
export const newClaim = (request: IdempotencyRequest, body: unknown, now = Date.now()): IdempotencyClaim => ({
  ...request,
  fingerprint: fingerprintOf(body),
  createdAt: now,
});

/** One string per (holder, key): keys are visible ASCII, so a newline keeps the two apart. */
export const claimId = ({ holder, key }: IdempotencyRequest): string => `${holder}\n${key}`;

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
