import { CURSOR_LENGTH, IDEMPOTENCY_KEY_LENGTH, MAX_ID } from './interface';
import { codePointLength, type FieldProblem, type FieldRule, fieldRule, wholeNumberRule } from './new-pet-rules';

// The rules of the two opaque strings a request may carry, listPets' `cursor` and createPet's `Idempotency-Key`: the
// bounds the service holds them to (pets/pet-cursor.ts, pets/idempotency/idempotency-key.ts), so that a client or the
// CLI can refuse a mistyped value before sending it, in the same words as the other rules.

type Alphabet = Extract<FieldProblem, { kind: 'disallowedCharacters' }>['allowed'];

/**
 * A string of at most `maxLength` characters, all of `alphabet` (`written`, the same as a pattern), with its problems
 * in the order the service names them. Both strings are at least 1 character long, which refusing a blank one covers.
 */
function textRule(maxLength: number, alphabet: Alphabet, written: RegExp): FieldRule {
  return fieldRule((value) => {
    if (value === undefined) return { kind: 'missing' };
    if (typeof value !== 'string') return { kind: 'notString' };
    if (!/\S/u.test(value)) return { kind: 'blank' };
    const characters = codePointLength(value);
    if (characters > maxLength) return { kind: 'tooLong', max: maxLength, length: characters };
    if (!written.test(value)) return { kind: 'disallowedCharacters', allowed: alphabet };
    return undefined;
  });
}

/**
 * listPets' `cursor` as the service issues it: 1 to 40 characters of A-Z, a-z, 0-9, `_` and `-`. A cursor of that
 * form that the service did not make passes this rule and is still refused by the service.
 */
export const CURSOR_RULE: FieldRule = textRule(CURSOR_LENGTH.max, 'base64url', /^[A-Za-z0-9_-]*$/);

/** createPet's `Idempotency-Key`: 1 to 255 visible ASCII characters (%x21-7E), so no spaces. */
export const IDEMPOTENCY_KEY_RULE: FieldRule = textRule(IDEMPOTENCY_KEY_LENGTH.max, 'visibleAscii', /^[\x21-\x7e]*$/);

/**
 * An event's position, as `Last-Event-ID` or `after` name one to resume after: a whole number from 0 (0: every event
 * kept) to 2^53 - 1.
 */
export const EVENT_POSITION_RULE: FieldRule = wholeNumberRule(0, MAX_ID, { jsonNumber: false });
