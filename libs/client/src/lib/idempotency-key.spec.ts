import { newIdempotencyKey } from './idempotency-key';

describe(newIdempotencyKey.name, () => {
  it('makes version 4 UUIDs, a new one each time', () => {
    const keys = Array.from({ length: 1_000 }, newIdempotencyKey);
    for (const key of keys) expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
