import { codePointLength, isPetName, isPetStatus, isSafeId, newPetProblems } from './new-pet-rules';

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

    it('names each refused field in the service\'s words', () => {
      expect(newPetProblems({ name: ' ', categoryId: 0, status: 'lost' })).toEqual({
        name: 'name is required and must be a string of 1 to 100 characters that is not only whitespace and has no NUL character or unpaired surrogate',
        categoryId: 'categoryId is required and must be an integer from 1 to 9007199254740991',
        status: 'status must be one of available, pending, sold',
      });
      expect(Object.keys(newPetProblems({}))).toEqual(['name', 'categoryId']);
    });
  });
});
