import { createHash } from 'node:crypto';
import { fingerprintOf, isValidIdempotencyKey } from './idempotency-key';

describe('idempotency keys', () => {
  it.each([
    ['a', true],
    ['4f8a1c52-6a4e-4b7e-9b0a-3f1e2d7c9a10', true],
    ['!~', true],
    ['x'.repeat(255), true],
    ['', false],
    ['x'.repeat(256), false],
    ['a b', false],
    ['a\tb', false],
    ['clé', false],
    ['a, b', false],
  ])('%j is valid: %s', (key, valid) => {
    expect(isValidIdempotencyKey(key)).toBe(valid);
  });

  it('fingerprints equal JSON alike, whatever the key order', () => {
    expect(fingerprintOf({ name: 'Rex', categoryId: 1, nested: { b: 1, a: [1, { d: 2, c: 3 }] } })).toBe(
      fingerprintOf({ nested: { a: [1, { c: 3, d: 2 }], b: 1 }, categoryId: 1, name: 'Rex' }),
    );
  });

  it('fingerprints the SHA-256 of the body written with sorted keys, commas between items and no spaces', () => {
    const canonical = '{"a":"x","b":[1,{"c":3,"d":2}],"e":null}';
    expect(fingerprintOf({ e: null, b: [1, { d: 2, c: 3 }], a: 'x' })).toBe(createHash('sha256').update(canonical).digest('hex'));
  });

  it('ignores properties that are undefined, as JSON does', () => {
    expect(fingerprintOf({ name: 'Rex', status: undefined })).toBe(fingerprintOf({ name: 'Rex' }));
  });

  it.each([
    [{ name: 'Rex' }, { name: 'Rex', status: 'available' }],
    [{ name: 'Rex' }, { name: 'rex' }],
    [{ categoryId: 1 }, { categoryId: '1' }],
    [{ a: [1, 2] }, { a: [2, 1] }],
  ])('fingerprints different JSON differently: %j and %j', (a, b) => {
    expect(fingerprintOf(a)).not.toBe(fingerprintOf(b));
  });
});
