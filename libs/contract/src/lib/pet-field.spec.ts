import { describeProblem, fieldProblems, ruleOf } from './new-pet-rules';
import { PET_FIELDS } from './pet';
import { fieldEntries, type FieldList, sentFieldEntries, withDefaults } from './pet-field';

/** A record with a field of every kind, so that each kind's rule is tried before a real field uses it. */
interface Visit {
  id: number;
  vet: string;
  room: number;
  urgency?: 'routine' | 'urgent';
  day?: string;
}

const VISIT_FIELDS: FieldList<Visit> = {
  id: { kind: 'integer', min: 1, max: Number.MAX_SAFE_INTEGER, assigned: true, label: 'Id', description: 'id' },
  vet: { kind: 'text', minLength: 1, maxLength: 5, label: 'Vet', description: 'vet' },
  room: { kind: 'integer', min: 1, max: 12, label: 'Room', description: 'room' },
  urgency: { kind: 'choice', values: ['routine', 'urgent'], enumName: 'Urgency', default: 'routine', optional: true, label: 'Urgency', description: 'urgency' },
  day: { kind: 'date', optional: true, label: 'Day', description: 'day' },
};

describe('field lists', () => {
  it('keeps the interface’s order, and sends every field the service does not assign', () => {
    expect(fieldEntries(VISIT_FIELDS).map(([field]) => field)).toEqual(['id', 'vet', 'room', 'urgency', 'day']);
    expect(sentFieldEntries(VISIT_FIELDS).map(([field]) => field)).toEqual(['vet', 'room', 'urgency', 'day']);
    expect(sentFieldEntries(PET_FIELDS).map(([field]) => field).slice(0, 3)).toEqual(['name', 'categoryId', 'status']);
  });

  it('checks each kind by its rule, an optional field only when sent', () => {
    expect(fieldProblems(VISIT_FIELDS, { vet: 'Ana', room: 3 })).toEqual({});
    expect(fieldProblems(VISIT_FIELDS, { vet: 'Ana', room: 3, urgency: 'urgent', day: '2024-02-29' })).toEqual({});
    expect(fieldProblems(VISIT_FIELDS, { vet: 'Anastasia', room: 13, urgency: 'soon', day: '2023-02-29' })).toEqual({
      vet: { kind: 'tooLong', max: 5, length: 9 },
      room: { kind: 'outOfRange', min: 1, max: 12 },
      urgency: { kind: 'notOneOf', values: ['routine', 'urgent'] },
      day: { kind: 'notDate' },
    });
    expect(fieldProblems(VISIT_FIELDS, {})).toEqual({ vet: { kind: 'missing' }, room: { kind: 'missing' } });
  });

  it('fills in a left-out field’s default, and only that', () => {
    expect(withDefaults(VISIT_FIELDS, { vet: 'Ana', room: 3 })).toEqual({ vet: 'Ana', room: 3, urgency: 'routine' });
    expect(withDefaults(VISIT_FIELDS, { vet: 'Ana', room: 3, urgency: 'urgent' })).toEqual({ vet: 'Ana', room: 3, urgency: 'urgent' });
    expect(withDefaults(PET_FIELDS, { name: 'Rex', categoryId: 1 })).toEqual({ name: 'Rex', categoryId: 1, status: 'available' });
  });

  it('makes one rule per field', () => {
    expect(ruleOf(VISIT_FIELDS.vet)).toBe(ruleOf(VISIT_FIELDS.vet));
  });

  describe('a date', () => {
    const rule = ruleOf(VISIT_FIELDS.day);

    it.each(['2024-02-29', '0001-01-01', '9999-12-31', '1970-01-01', '0099-06-15'])('accepts %s', (day) => expect(rule.check(day)).toBeUndefined());

    it.each([
      ['2023-02-29', 'not a leap year'],
      ['2024-13-01', 'no month 13'],
      ['2024-04-31', 'April has 30 days'],
      ['0000-01-01', 'no year 0'],
      ['2024-1-01', 'a one-digit month'],
      ['2024-01-01T00:00:00Z', 'a date-time'],
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
    const base = VISIT_FIELDS;
    // @ts-expect-error a field of the interface left out
    const missing: FieldList<Visit> = { id: base.id, vet: base.vet, room: base.room, urgency: base.urgency };
    // @ts-expect-error a number described as text
    const wrongKind: FieldList<Visit> = { ...base, room: { kind: 'text', minLength: 1, maxLength: 2, label: 'Room', description: 'room' } };
    // @ts-expect-error an optional field not marked optional
    const notOptional: FieldList<Visit> = { ...base, day: { kind: 'date', label: 'Day', description: 'day' } };
    expect([missing, wrongKind, notOptional]).toHaveLength(3);
  });
});
