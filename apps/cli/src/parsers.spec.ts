import { InvalidArgumentError } from 'commander';
import { parsePositiveInteger, parseServiceUrl } from './parsers';

describe(parsePositiveInteger.name, () => {
  it.each([
    ['1', 1],
    ['100', 100],
    ['9007199254740991', 9007199254740991],
  ])('reads %j as %i', (value, number) => {
    expect(parsePositiveInteger(value)).toBe(number);
  });

  it.each(['0', '-1', '1.5', '1e3', '0x10', ' 7', 'abc', '', '9007199254740992'])('rejects %j as a usage error', (value) => {
    expect(() => parsePositiveInteger(value)).toThrow(InvalidArgumentError);
  });
});

describe(parseServiceUrl.name, () => {
  it.each(['http://localhost:3000/v1', 'https://petstore.example.com/v1'])('accepts %j unchanged', (value) => {
    expect(parseServiceUrl(value)).toBe(value);
  });

  it.each(['localhost:3000/v1', 'ftp://example.com/v1', '/v1', 'not a url'])('rejects %j as a usage error', (value) => {
    expect(() => parseServiceUrl(value)).toThrow(InvalidArgumentError);
  });
});
