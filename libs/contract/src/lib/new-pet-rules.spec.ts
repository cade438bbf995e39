import { API_PREFIX, GET_PET_DEPRECATED_AT, GET_PET_SUNSET, MAX_ID } from './interface';
import { codePointLength, isPetName, isPetStatus, isSafeId, LIST_LIMIT_RULE, newPetFieldProblems, newPetProblems, PET_NAME_RULE, ruleOf, SAFE_ID_RULE } from './new-pet-rules';
import { PET_FIELDS } from './pet';
import { CATEGORY_FILTER_RULE, NAME_SEARCH_RULE } from './pet-search';

describe('the rules of a new pet', () => {
  describe(codePointLength.name, () => {
    it.each([
      ['', 0],
      ['Rex', 3],
      ['🐈', 1],
      ['🐈‍⬛', 3],
      ['e\u0301', 2],
    ])('counts %j as %i code points', (text, length) => {
      expect(codePointLength(text)).toBe(length);
    });
  });

  describe(isPetName.name, () => {
    it.each(['R', ' Rex ', '🐈'.repeat(100), 'a'.repeat(100), 'ä\u200b'])('accepts %j', (name) => {
      expect(isPetName(name)).toBe(true);
    });

    it.each([['', 'empty'], [' \t\n', 'only whitespace'], ['\u3000\u00a0', 'only Unicode spaces'], ['a'.repeat(101), '101 letters'], ['🐈'.repeat(101), '101 emoji'], ['Rex\u0000', 'a NUL character'], ['Re\ud800x', 'an unpaired high surrogate'], ['\udc08', 'an unpaired low surrogate']])(
      'refuses %j (%s)',
      (name) => {
        expect(isPetName(name)).toBe(false);
      },
    );

    it.each([null, undefined, 42, ['Rex'], { name: 'Rex' }])('refuses the non-string %j', (name) => {
      expect(isPetName(name)).toBe(false);
    });
  });

  describe(isSafeId.name, () => {
    it.each([1, 42, Number.MAX_SAFE_INTEGER])('accepts %d', (id) => expect(isSafeId(id)).toBe(true));
    it.each([0, -1, 2.5, Number.MAX_SAFE_INTEGER + 1, Number.NaN, Infinity, '5', null])('refuses %j', (id) =>
      expect(isSafeId(id)).toBe(false),
    );
  });

  describe(isPetStatus.name, () => {
    it.each(['available', 'pending', 'sold'])('accepts %s', (status) => expect(isPetStatus(status)).toBe(true));
    it.each(['Available', 'lost', '', null, 1])('refuses %j', (status) => expect(isPetStatus(status)).toBe(false));
  });

  describe(newPetProblems.name, () => {
    it('has nothing to say of a valid pet, with or without its status', () => {
      expect(newPetProblems({ name: 'Rex', categoryId: 1 })).toEqual({});
      expect(newPetProblems({ name: 'Rex', categoryId: 1, status: 'sold' })).toEqual({});
    });

    it('names each refused field in the service\'s words: "required" only when it is missing', () => {
      expect(newPetProblems({ name: ' ', categoryId: 0, status: 'lost' })).toEqual({
        name: 'name must not be empty or only whitespace',
        categoryId: 'categoryId must be a whole number from 1 to 9007199254740991',
        status: 'status must be one of available, pending, sold',
      });
      expect(newPetProblems({})).toEqual({ name: 'name is required', categoryId: 'categoryId is required' });
    });

    it.each([
      [{ name: 'a'.repeat(101) }, 'name', 'name must be at most 100 characters (it has 101)'],
      [{ name: '🐈'.repeat(101) }, 'name', 'name must be at most 100 characters (it has 101)'],
      [{ name: 42 }, 'name', 'name must be a string'],
      [{ name: null }, 'name', 'name must be a string'],
      [{ name: '' }, 'name', 'name must not be empty or only whitespace'],
      [{ name: 'Rex\u0000' }, 'name', 'name must not contain the NUL character (\\u0000)'],
      [{ name: 'Re\ud800x' }, 'name', 'name must not contain an unpaired surrogate (a lone \\ud800-\\udfff escape is not a character)'],
      [{ categoryId: 'x' }, 'categoryId', 'categoryId must be a whole number from 1 to 9007199254740991'],
      [{ categoryId: '5' }, 'categoryId', 'categoryId must be a whole number from 1 to 9007199254740991, sent as a JSON number, not a string'],
      [{ categoryId: 1.5 }, 'categoryId', 'categoryId must be a whole number from 1 to 9007199254740991'],
      [{ categoryId: 1e20 }, 'categoryId', 'categoryId must be a whole number from 1 to 9007199254740991'],
      [{ categoryId: null }, 'categoryId', 'categoryId must be a whole number from 1 to 9007199254740991'],
      [{ categoryId: true }, 'categoryId', 'categoryId must be a whole number from 1 to 9007199254740991'],
    ])('refuses %j: %s', (fields, field, words) => {
      expect(newPetProblems({ name: 'Rex', categoryId: 1, ...fields })[field as 'name']).toBe(words);
    });

    it('gives each problem as data, for an app to put in its own words', () => {
      expect(newPetFieldProblems({ name: 'a'.repeat(101), categoryId: '7' })).toEqual({
        name: { kind: 'tooLong', max: 100, length: 101 },
        categoryId: { kind: 'notWholeNumber', min: 1, max: 9007199254740991, quoted: true },
      });
    });
  });

  describe('LIST_LIMIT_RULE', () => {
    it.each([1, 20, 100])('accepts %d', (limit) => expect(LIST_LIMIT_RULE.accepts(limit)).toBe(true));
    it.each([0, 101, -1, 2.5, 'abc', ''])('refuses %j as a whole number from 1 to 100', (limit) =>
      expect(LIST_LIMIT_RULE.refusal('limit', limit)).toBe('limit must be a whole number from 1 to 100'),
    );
  });
});

describe('the rules of each place a value comes from', () => {
  it('refuses control characters in a search term, and only NUL in a name', () => {
    expect(NAME_SEARCH_RULE.check('Rex\u0007')).toEqual({ kind: 'controlCharacter' });
    expect(NAME_SEARCH_RULE.check('Rex\n')).toEqual({ kind: 'controlCharacter' });
    expect(PET_NAME_RULE.check('Rex\u0007')).toBeUndefined();
    expect(PET_NAME_RULE.check('Rex\u0000')).toEqual({ kind: 'nulCharacter' });
  });

  it('names a number sent as a JSON string (a body), never a query parameter, which is all strings', () => {
    const notWhole = (quoted: boolean, max = MAX_ID) => ({ kind: 'notWholeNumber', min: 1, max, quoted });
    expect(SAFE_ID_RULE.check('3')).toEqual(notWhole(true));
    expect(ruleOf(PET_FIELDS.categoryId).check(' 3 ')).toEqual(notWhole(true));
    expect(SAFE_ID_RULE.check(' ')).toEqual(notWhole(false));
    expect(SAFE_ID_RULE.check('three')).toEqual(notWhole(false));
    expect(CATEGORY_FILTER_RULE.check('3')).toEqual(notWhole(false));
    expect(LIST_LIMIT_RULE.check('3')).toEqual(notWhole(false, 100));
  });

  it('says what is wrong with a search term, and that a valid value is valid', () => {
    expect(NAME_SEARCH_RULE.refusal('name', 'Rex\u0007')).toBe('name must not contain control characters (U+0000 to U+001F, U+007F to U+009F)');
    expect(NAME_SEARCH_RULE.refusal('name', 'Rex')).toBe('name is valid');
  });

  it('tells a date left out from one of another type', () => {
    const day = ruleOf({ kind: 'date' });
    expect([day.check(undefined), day.check(20240101)]).toEqual([{ kind: 'missing' }, { kind: 'notString' }]);
  });
});

describe("the interface's fixed values", () => {
  it('serves every operation under /v1, and getPet deprecated since 2026-01-01 until its removal on 5 December 2030', () => {
    expect(API_PREFIX).toBe('/v1');
    expect(GET_PET_DEPRECATED_AT.toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect(GET_PET_SUNSET.toUTCString()).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
  });
});
