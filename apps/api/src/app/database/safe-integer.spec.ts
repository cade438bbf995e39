import { safeInteger, toSafeInteger } from './safe-integer';

describe(toSafeInteger.name, () => {
  it.each([
    ['1', 1],
    ['9007199254740991', 9007199254740991],
    [42, 42],
    ['-3', -3],
  ])('maps %j to %d exactly', (value, number) => expect(toSafeInteger(value)).toBe(number));

  it.each(['9007199254740992', '9223372036854775807', 9007199254740992, '1.5', 'abc', '', '12abc', 'abc12', ' 12', '12 ', '0x10', '1e3', null, undefined, {}])(
    'refuses %j rather than rounding it',
    (value) => expect(() => toSafeInteger(value)).toThrow(RangeError),
  );

  it('says which stored value it refused', () => {
    expect(() => toSafeInteger('9223372036854775807')).toThrow("Stored integer 9223372036854775807 is outside JavaScript's safe range");
  });

  it('passes NULL through, reads what is stored as a safe integer, and writes values unchanged', () => {
    expect(safeInteger.from(null)).toBeNull();
    expect(safeInteger.from(undefined)).toBeUndefined();
    expect(safeInteger.from('7')).toBe(7);
    expect(() => safeInteger.from('9007199254740992')).toThrow(RangeError);
    expect(safeInteger.to(5)).toBe(5);
  });
});
