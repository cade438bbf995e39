import { CURSOR_RULE, EVENT_POSITION_RULE, IDEMPOTENCY_KEY_RULE } from './request-rules';

describe('the rules of a request', () => {
  describe('CURSOR_RULE', () => {
    it.each(['cDEuMg', 'a', 'A-z_09', 'x'.repeat(40)])('accepts %j', (cursor) => {
      expect(CURSOR_RULE.check(cursor)).toBeUndefined();
    });

    it.each([
      [undefined, { kind: 'missing' }],
      [42, { kind: 'notString' }],
      ['', { kind: 'blank' }],
      ['  ', { kind: 'blank' }],
      ['x'.repeat(41), { kind: 'tooLong', max: 40, length: 41 }],
      ['cDEu=', { kind: 'disallowedCharacters', allowed: 'base64url' }],
      ['cDEu+Mg/', { kind: 'disallowedCharacters', allowed: 'base64url' }],
      [' cDEuMg', { kind: 'disallowedCharacters', allowed: 'base64url' }],
      ['cDEuMgé', { kind: 'disallowedCharacters', allowed: 'base64url' }],
    ])('refuses %j as %j', (cursor, problem) => {
      expect(CURSOR_RULE.check(cursor)).toEqual(problem);
    });

    it('says what is wrong in the service\'s words, naming the field', () => {
      expect(CURSOR_RULE.refusal('cursor', 'p1.2')).toBe('cursor must contain only the characters A-Z, a-z, 0-9, _ and -');
      expect(CURSOR_RULE.refusal('cursor', 'x'.repeat(41))).toBe('cursor must be at most 40 characters (it has 41)');
      expect(CURSOR_RULE.refusal('cursor', '')).toBe('cursor must not be empty or only whitespace');
    });
  });

  describe('IDEMPOTENCY_KEY_RULE', () => {
    it.each(['order-42', '!', '~', 'a'.repeat(255), '0b8a7c1e-2f4d-4e5a-9b6c-7d8e9f0a1b2c'])('accepts %j', (key) => {
      expect(IDEMPOTENCY_KEY_RULE.accepts(key)).toBe(true);
    });

    it.each([
      [undefined, { kind: 'missing' }],
      [['order-42'], { kind: 'notString' }],
      ['', { kind: 'blank' }],
      ['a'.repeat(256), { kind: 'tooLong', max: 255, length: 256 }],
      ['order 42', { kind: 'disallowedCharacters', allowed: 'visibleAscii' }],
      ['order-42, order-43', { kind: 'disallowedCharacters', allowed: 'visibleAscii' }],
      ['bestellung-ä', { kind: 'disallowedCharacters', allowed: 'visibleAscii' }],
      ['order\t42', { kind: 'disallowedCharacters', allowed: 'visibleAscii' }],
    ])('refuses %j as %j', (key, problem) => {
      expect(IDEMPOTENCY_KEY_RULE.check(key)).toEqual(problem);
    });

    it('says what is wrong in the service\'s words, naming the field', () => {
      expect(IDEMPOTENCY_KEY_RULE.refusal('Idempotency-Key', 'order 42')).toBe(
        'Idempotency-Key must contain only visible ASCII characters (! to ~, no spaces)',
      );
      expect(IDEMPOTENCY_KEY_RULE.refusal('Idempotency-Key', 'a'.repeat(256))).toBe('Idempotency-Key must be at most 255 characters (it has 256)');
    });
  });

  describe('EVENT_POSITION_RULE', () => {
    it('accepts every position from 0 to 2^53 - 1, and nothing else', () => {
      expect([0, 1, Number.MAX_SAFE_INTEGER].map((position) => EVENT_POSITION_RULE.accepts(position))).toEqual([true, true, true]);
      expect([-1, 1.5, Number.MAX_SAFE_INTEGER + 1, '3', Number.NaN].map((position) => EVENT_POSITION_RULE.accepts(position))).toEqual([false, false, false, false, false]);
      expect(EVENT_POSITION_RULE.refusal('--after', -1)).toBe(`--after must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER}`);
    });
  });
});
