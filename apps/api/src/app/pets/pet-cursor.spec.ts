import { CURSOR_LENGTH } from '@petstore/contract';
import { ApiException } from '../errors/api-exception';
import { decodeCursor, encodeCursor } from './pet-cursor';

describe('pet cursor', () => {
  it.each([1, 20, 123456789, Number.MAX_SAFE_INTEGER])('round-trips the id %d through an opaque URL-safe text', (id) => {
    const cursor = encodeCursor(id);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(cursor).not.toContain(String(id));
    expect(decodeCursor(cursor)).toBe(id);
  });

  it('issues cursors within the bounds the OpenAPI document states, even for the largest id', () => {
    expect(encodeCursor(Number.MAX_SAFE_INTEGER).length).toBeLessThanOrEqual(CURSOR_LENGTH.max);
    expect(encodeCursor(1).length).toBeGreaterThanOrEqual(CURSOR_LENGTH.min);
  });

  it.each([
    ['empty', ''],
    ['not base64url', '***'],
    ['another prefix', Buffer.from('p2.5').toString('base64url')],
    ['a negative id', Buffer.from('p1.-5').toString('base64url')],
    ['a zero id', Buffer.from('p1.0').toString('base64url')],
    ['a leading zero', Buffer.from('p1.05').toString('base64url')],
    ['an id beyond 2^53', Buffer.from('p1.9007199254740993').toString('base64url')],
    ['trailing text', Buffer.from('p1.5x').toString('base64url')],
    // Number() would read these as 5.
    ['a trailing space', Buffer.from('p1.5 ').toString('base64url')],
    ['a trailing newline', Buffer.from('p1.5\n').toString('base64url')],
    ['a leading space', Buffer.from('p1. 5').toString('base64url')],
    ['an overlong text', 'A'.repeat(CURSOR_LENGTH.max + 1)],
  ])('refuses %s as a 400 naming cursor', (_label, cursor) => {
    expect(() => decodeCursor(cursor)).toThrow(ApiException);
    expect(() => decodeCursor(cursor)).toThrow(/cursor/);
  });
});
