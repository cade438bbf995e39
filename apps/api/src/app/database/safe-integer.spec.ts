import { safeInteger, toSafeInteger } from './safe-integer';

describe(toSafeInteger.name, () => {
  it.each([
    ['1', 1],
    ['9007199254740991', 9007199254740991],
    [42, 42],
    ['-3', -3],
  ])('maps %j to %d exactly', (value, number) => expect(toSafeInteger(value)).toBe(number));

  it.each(['9007199254740992', '9223372036854775807', 9007199254740992, '1.5', 'abc', '', null, undefined, {}])(
    'refuses %j rather than rounding it',
    (value) => expect(() => toSafeInteger(value)).toThrow(RangeError),
  );

  it('passes NULL through and writes values unchanged', () => {
    expect(safeInteger.from(null)).toBeNull();
    expect(safeInteger.to(5)).toBe(5);
  });
});
