import { hash, randomBytes } from 'node:crypto';

/** Every issued key starts with this, so that a leaked one is recognisable (secret scanners, logs, tickets). */
export const KEY_PREFIX = 'pk_';

/** How much of a key `list` shows to tell keys apart: the prefix and 9 more characters (54 of its 256 bits). */
const SHOWN_LENGTH = KEY_PREFIX.length + 9;

/** A new key: the prefix and 256 random bits, base64url. It is shown once and only its hash is stored. */
export function generateApiKey(): string {
  return `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/**
 * SHA-256 of a key: what is stored and looked up. A fast hash is right here: the input has 256 bits of entropy.
 * The one-shot `hash` (Node 20.12) builds no Hash object: this runs on every authenticated request.
 */
export function hashApiKey(key: string): Buffer {
  return hash('sha256', key, 'buffer');
}

/** The start of a key, to identify it in listings without revealing it. */
export function shownPart(key: string): string {
  return key.slice(0, SHOWN_LENGTH);
}
