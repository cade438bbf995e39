import { LIST_LIMIT_RULE, PET_NAME_RULE } from '@petstore/contract';
import { Command, InvalidArgumentError } from 'commander';
import { checked, parseServiceUrl, wholeNumber } from './parsers';

describe(wholeNumber.name, () => {
  it.each([
    ['1', 1],
    ['0', 0],
    ['-1', -1],
    ['007', 7],
    ['9007199254740993', 9007199254740992],
  ])('reads %j as %d, for the rule to judge', (text, number) => {
    expect(wholeNumber(text)).toBe(number);
  });

  it.each(['1.5', '1e3', '0x10', ' 7', '+7', 'abc', ''])('reads %j as NaN, which no number rule accepts', (text) => {
    expect(wholeNumber(text)).toBeNaN();
  });
});

describe(checked.name, () => {
  const command = () => {
    const stderr: string[] = [];
    const sut = new Command('probe').exitOverride().configureOutput({ writeErr: (text) => stderr.push(text) });
    return { sut, stderr };
  };

  it('returns the value the rule accepts, and nothing for an option not given', () => {
    const { sut } = command();

    expect(checked(sut, '--limit', '100', LIST_LIMIT_RULE, wholeNumber)).toBe(100);
    expect(checked(sut, '--limit', undefined, LIST_LIMIT_RULE, wholeNumber)).toBeUndefined();
  });

  it.each([
    ['a limit of 101', '101', LIST_LIMIT_RULE, wholeNumber, 'error: --opt must be a whole number from 1 to 100 (got 101)\n'],
    ['an empty name', '', PET_NAME_RULE, undefined, 'error: --opt must not be empty or only whitespace (got "")\n'],
    ['a name of 101 characters', 'n'.repeat(101), PET_NAME_RULE, undefined, 'error: --opt must be at most 100 characters (it has 101)\n'],
  ])("refuses %s as a usage error (exit 2) in the rule's words", (_case, text, rule, read, words) => {
    const { sut, stderr } = command();

    expect(() => checked(sut, '--opt', text, rule, read)).toThrow(expect.objectContaining({ exitCode: 2, code: 'petstore.usage' }));
    expect(stderr).toEqual([words]);
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
