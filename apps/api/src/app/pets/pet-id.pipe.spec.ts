import { PetIdPipe } from './pet-id.pipe';

describe(PetIdPipe.name, () => {
  const sut = new PetIdPipe();
  const codeOf = (raw: string) => {
    try {
      sut.transform(raw);
      return 'ok';
    } catch (error) {
      return (error as { code: string }).code;
    }
  };

  it.each([
    ['1', 1],
    ['42', 42],
    ['007', 7],
    ['9007199254740991', 9007199254740991],
  ])('parses %s', (raw, id) => expect(sut.transform(raw)).toBe(id));

  it.each(['0', '-1', '9007199254740992', '9223372036854775807', '-9223372036854775808'])(
    'treats the int64 %s, which no pet can have, as absent',
    (raw) => expect(codeOf(raw)).toBe('not_found'),
  );

  it.each(['', 'abc', '1.0', '1e3', '0x1F', ' 1', '+1', '9223372036854775808', '-9223372036854775809', '1'.repeat(21)])(
    'refuses %j as not a base-10 int64',
    (raw) => expect(codeOf(raw)).toBe('validation_failed'),
  );
});
