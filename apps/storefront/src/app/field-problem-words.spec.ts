import { type FieldProblem, MAX_ID } from '@petstore/contract';
import { describeFieldProblem, newPetProblemWords } from './field-problem-words';

describe(describeFieldProblem.name, () => {
  it.each<[string, FieldProblem, unknown, string]>([
    ['Name', { kind: 'missing' }, undefined, 'Enter a name.'],
    ['Category', { kind: 'missing' }, undefined, 'Enter a category.'],
    ['Name', { kind: 'notString' }, 7, 'The name must be text.'],
    ['Name', { kind: 'blank' }, '   ', 'Enter a name: spaces alone do not count.'],
    ['Name', { kind: 'tooLong', max: 100, length: 101 }, 'x'.repeat(101), 'The name is too long: at most 100 characters (this one has 101).'],
    ['Name', { kind: 'nulCharacter' }, 'Rex\u0000', 'The name contains a hidden character that cannot be saved. Type it again rather than pasting it.'],
    [
      'Name',
      { kind: 'unpairedSurrogate' },
      'Rex\ud83d',
      'The name contains a broken character (half of an emoji or symbol) that cannot be saved. Type it again rather than pasting it.',
    ],
    ['Category', { kind: 'notWholeNumber', min: 1, max: MAX_ID, quoted: true }, '1.5', 'The category must be a whole number, such as 3.'],
    ['Category', { kind: 'outOfRange', min: 1, max: MAX_ID }, 0, 'The category must be 1 or more.'],
    ['Category', { kind: 'outOfRange', min: 1, max: MAX_ID }, 1e20, 'The category number is too large.'],
    ['Status', { kind: 'notOneOf', values: ['available', 'pending', 'sold'] }, 'lost', 'Choose a status: available, pending or sold.'],
    ['Birth date', { kind: 'notDate' }, '2023-02-29', 'The birth date must be a date such as 2024-05-31.'],
    ['Code', { kind: 'tooShort', min: 3, length: 2 }, 'ab', 'The code is too short: at least 3 characters (this one has 2).'],
  ])('says %s %j as a shop assistant reads it', (field, problem, value, words) => {
    expect(describeFieldProblem(field, problem, value)).toBe(words);
  });
});

describe(newPetProblemWords.name, () => {
  // Each pet with the fields the interface refuses in it, written out here rather than asked of the contract's rules.
  const pets: Array<[Record<string, unknown>, string[]]> = [
    [{}, ['name', 'categoryId']],
    [{ name: 'Rex', categoryId: 1 }, []],
    [{ name: 'Rex', categoryId: 1, status: 'sold' }, []],
    [{ name: '', categoryId: '' }, ['name', 'categoryId']],
    [{ name: 'x'.repeat(101), categoryId: 'x' }, ['name', 'categoryId']],
    [{ name: '🐈'.repeat(100), categoryId: MAX_ID }, []],
    [{ name: 'Rex\u0000', categoryId: 1.5 }, ['name', 'categoryId']],
    [{ name: '\ud800', categoryId: 1e20 }, ['name', 'categoryId']],
    [{ name: 7, categoryId: '3', status: 'lost' }, ['name', 'categoryId', 'status']],
    [{ name: 'Rex', categoryId: -1, status: 'Sold' }, ['categoryId', 'status']],
  ];

  it.each(pets)('refuses exactly the fields the interface refuses: %j', (pet, refused) => {
    expect(Object.keys(newPetProblemWords(pet))).toEqual(refused);
  });

  it.each(pets)("says none of the service's words for developers: %j", (pet) => {
    for (const words of Object.values(newPetProblemWords(pet))) {
      expect(words).not.toMatch(/required and|NUL|surrogate|\\u|9007199254740991|JSON|categoryId|string/);
      expect(words).toMatch(/^[A-Z].*\.$/);
    }
  });
});
