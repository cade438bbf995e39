import type { FieldList } from '@petstore/contract';
import { Command } from 'commander';
import { fieldOptionsOf } from './pet-field-options';

/** A record with a field of every kind, so that each kind's option and column is tried before a real field uses it. */
interface Booking {
  id: number;
  guest: string;
  roomId: number;
  meal?: 'none' | 'breakfast';
  arrival?: string;
}

const BOOKING_FIELDS: FieldList<Booking> = {
  id: { kind: 'integer', min: 1, max: Number.MAX_SAFE_INTEGER, assigned: true, label: 'Id', description: 'id' },
  guest: { kind: 'text', minLength: 1, maxLength: 20, label: 'Guest', description: 'guest' },
  roomId: { kind: 'integer', min: 1, max: 400, label: 'Room', description: 'room' },
  meal: { kind: 'choice', values: ['none', 'breakfast'], enumName: 'Meal', default: 'none', optional: true, label: 'Meal', description: 'meal' },
  arrival: { kind: 'date', optional: true, label: 'Arrival day', description: 'arrival' },
};

const booking = fieldOptionsOf(BOOKING_FIELDS);

/** Parses `args` as `book`'s options: the record, or the usage error's words. */
function book(args: string[]): Partial<Booking> | string {
  const command = booking.addOptions(new Command('book')).exitOverride().configureOutput({ writeErr: () => undefined });
  try {
    command.parse(args, { from: 'user' });
    return booking.recordFrom(command, command.opts());
  } catch (error) {
    return (error as Error).message;
  }
}

describe(fieldOptionsOf.name, () => {
  it('offers an option per field a client sends, named by its label, mandatory where the field is required', () => {
    // One space for each run of them: commander aligns and wraps the descriptions.
    const help = booking.addOptions(new Command('book')).helpInformation().replace(/\s+/g, ' ');
    expect(help).toContain('--guest <guest> guest: 1 to 20 characters, not only spaces');
    expect(help).toContain('--room <id> room id: a whole number from 1');
    expect(help).toContain('--meal <meal> meal: none or breakfast (the service defaults to none)');
    expect(help).toContain('--arrival-day <yyyy-mm-dd> arrival day: a date written YYYY-MM-DD');
    expect(help).not.toContain('--id');
    expect(book(['--guest', 'Ana'])).toBe("error: required option '--room <id>' not specified");
  });

  it('reads each option as its kind, leaving out an optional one not given', () => {
    expect(book(['--guest', 'Ana', '--room', '12'])).toEqual({ guest: 'Ana', roomId: 12 });
    expect(book(['--guest', 'Ana', '--room', '12', '--meal', 'breakfast', '--arrival-day', '2024-02-29'])).toEqual({
      guest: 'Ana',
      roomId: 12,
      meal: 'breakfast',
      arrival: '2024-02-29',
    });
  });

  it.each([
    [['--room', '1e3'], 'error: --room must be a whole number from 1 to 400 (got 1e3)'],
    [['--room', '401'], 'error: --room must be a whole number from 1 to 400 (got 401)'],
    [['--room', '1', '--meal', 'lunch'], 'error: --meal must be one of none, breakfast (got lunch)'],
    [['--room', '1', '--arrival-day', '2023-02-29'], 'error: --arrival-day must be a calendar date written YYYY-MM-DD, such as 2024-05-31 (got 2023-02-29)'],
  ])('refuses %j by the field’s rule, naming the option', (args, words) => {
    expect(book(['--guest', 'Ana', ...args])).toBe(words);
  });

  it('heads a column per field with its label in capitals, an absent value an empty cell', () => {
    expect(booking.header).toEqual(['ID', 'GUEST', 'ROOM', 'MEAL', 'ARRIVAL DAY']);
    expect(booking.row({ id: 3, guest: 'Ana', roomId: 12, arrival: '2024-02-29' })).toEqual(['3', 'Ana', '12', '', '2024-02-29']);
  });
});
