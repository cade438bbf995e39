import { describeProblem, fieldProblems, ruleOf } from './new-pet-rules';
import { PET_FIELDS } from './pet';
import { fieldEntries, type FieldList, sentFieldEntries, withDefaults } from './pet-field';

/** The kind Pet does not use yet, tried here before a real field does. */
interface Dated {
  id: number;
  day?: string;
}

const DATED_FIELDS: FieldList<Dated> = {
  id: { kind: 'integer', min: 1, max: 9, assigned: true, label: 'Id', description: 'id' },
  day: { kind: 'date', optional: true, label: 'Day', description: 'day' },
};

describe('field lists', () => {
  it('keeps the interface’s order, and sends every field the service does not assign', () => {
    expect(fieldEntries(DATED_FIELDS).map(([field]) => field)).toEqual(['id', 'day']);
    expect(sentFieldEntries(DATED_FIELDS).map(([field]) => field)).toEqual(['day']);
    expect(sentFieldEntries(PET_FIELDS).map(([field]) => field).slice(0, 3)).toEqual(['name', 'categoryId', 'status']);
    // The words the storefront and the CLI label Pet's fields with.
    expect(fieldEntries(PET_FIELDS).map(([, spec]) => spec.label).slice(0, 4)).toEqual(['Id', 'Name', 'Category', 'Status']);
  });

  it('checks each kind by its rule, an optional field only when sent', () => {
    expect(fieldProblems(PET_FIELDS, { name: 'Rex', categoryId: 3 })).toEqual({});
    expect(fieldProblems(PET_FIELDS, { name: 'R'.repeat(101), categoryId: 0, status: 'lost' })).toEqual({
      name: { kind: 'tooLong', max: 100, length: 101 },
      categoryId: { kind: 'outOfRange', min: 1, max: Number.MAX_SAFE_INTEGER },
      status: { kind: 'notOneOf', values: ['available', 'pending', 'sold'] },
    });
    expect(fieldProblems(PET_FIELDS, {})).toEqual({ name: { kind: 'missing' }, categoryId: { kind: 'missing' } });
    expect(fieldProblems(DATED_FIELDS, {})).toEqual({});
    expect(fieldProblems(DATED_FIELDS, { day: '2024-02-29' })).toEqual({});
    expect(fieldProblems(DATED_FIELDS, { day: '2023-02-29' })).toEqual({ day: { kind: 'notDate' } });
  });

  it('holds text to its least length as well as its most', () => {
    const code = ruleOf({ kind: 'text', minLength: 3, maxLength: 5 });
    expect(['abc', 'abcde', '🐈🐈🐈'].map((text) => code.check(text))).toEqual([undefined, undefined, undefined]);
    expect(code.check('ab')).toEqual({ kind: 'tooShort', min: 3, length: 2 });
    expect(code.refusal('code', 'ab')).toBe('code must be at least 3 characters (it has 2)');
  });

  it('fills in a left-out field’s default, and only that', () => {
    expect(withDefaults(PET_FIELDS, { name: 'Rex', categoryId: 1 })).toEqual({ name: 'Rex', categoryId: 1, status: 'available' });
    expect(withDefaults(PET_FIELDS, { name: 'Rex', categoryId: 1, status: 'sold' })).toEqual({ name: 'Rex', categoryId: 1, status: 'sold' });
    expect(withDefaults(DATED_FIELDS, {})).toStrictEqual({});
    const sizes: FieldList<{ size?: string }> = { size: { kind: 'choice', values: ['s', 'm'], enumName: 'Size', optional: true, label: 'Size', description: 'size' } };
    expect(Object.keys(withDefaults(sizes, {}))).toEqual([]);
  });

  it("holds each of Pet's fields to the interface's rule, and says so in its words", () => {
    const [name, categoryId, status] = [ruleOf(PET_FIELDS.name), ruleOf(PET_FIELDS.categoryId), ruleOf(PET_FIELDS.status)];
    expect(['R', 'x'.repeat(100), '🐈'.repeat(100)].map((text) => name.check(text))).toEqual([undefined, undefined, undefined]);
    expect(name.check('x'.repeat(101))).toEqual({ kind: 'tooLong', max: 100, length: 101 });
    expect(name.refusal('name', 'x'.repeat(101))).toBe('name must be at most 100 characters (it has 101)');
    expect([1, Number.MAX_SAFE_INTEGER].map((id) => categoryId.check(id))).toEqual([undefined, undefined]);
    expect([0, 2 ** 53, 1.5].map((id) => categoryId.check(id)?.kind)).toEqual(['outOfRange', 'outOfRange', 'notWholeNumber']);
    expect(['available', 'pending', 'sold'].map((value) => status.check(value))).toEqual([undefined, undefined, undefined]);
    expect(status.check('Sold')).toEqual({ kind: 'notOneOf', values: ['available', 'pending', 'sold'] });
  });

  describe('a date', () => {
    const rule = ruleOf(DATED_FIELDS.day);

    it.each(['2024-02-29', '0001-01-01', '9999-12-31', '1970-01-01', '0099-06-15'])('accepts %s', (day) => expect(rule.check(day)).toBeUndefined());

    it.each([
      ['2023-02-29', 'not a leap year'],
      ['2024-13-01', 'no month 13'],
      ['2024-04-31', 'April has 30 days'],
      ['0000-01-01', 'no year 0'],
      ['2024-1-01', 'a one-digit month'],
      ['2024-01-01T00:00:00Z', 'a date-time'],
      ['2024-01-01T00:00:00.000Z', 'a date-time as JavaScript writes one'],
      ['20240101', 'no dashes'],
      [' 2024-01-01', 'a leading space'],
      ['２０２４-01-01', 'full-width digits'],
      ['', 'empty'],
    ])('refuses %j (%s)', (day) => expect(rule.check(day)).toEqual({ kind: 'notDate' }));

    it.each([20240101, null, true])('refuses the non-string %j', (day) => expect(rule.check(day)).toEqual({ kind: 'notString' }));

    it('says how to write one', () => {
      expect(describeProblem('day', { kind: 'notDate' })).toBe('day must be a calendar date written YYYY-MM-DD, such as 2024-05-31');
    });
  });
});

describe('a field list’s type', () => {
  it('holds the list to its interface: every field, of a kind its type allows, optional where the interface says', () => {
    // @ts-expect-error a field of the interface left out
    const missing: FieldList<Dated> = { id: DATED_FIELDS.id };
    // @ts-expect-error a number described as text
    const wrongKind: FieldList<Dated> = { ...DATED_FIELDS, id: { kind: 'text', minLength: 1, maxLength: 2, label: 'Id', description: 'id' } };
    // @ts-expect-error an optional field not marked optional
    const notOptional: FieldList<Dated> = { ...DATED_FIELDS, day: { kind: 'date', label: 'Day', description: 'day' } };
    expect([missing, wrongKind, notOptional]).toHaveLength(3);
  });
});
