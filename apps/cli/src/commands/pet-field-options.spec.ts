import { type EveryKind, EVERY_KIND_FIELDS } from '@petstore/testing/every-kind';
import { Command } from 'commander';
import { fieldOptionsOf } from './pet-field-options';

const everyKind = fieldOptionsOf(EVERY_KIND_FIELDS);

/** Parses `args` as a command's options: the record, or the usage error's words. */
function parse(args: string[]): Partial<EveryKind> | string {
  const command = everyKind.addOptions(new Command('add')).exitOverride().configureOutput({ writeErr: () => undefined });
  try {
    command.parse(args, { from: 'user' });
    return everyKind.recordFrom(command, command.opts());
  } catch (error) {
    return (error as Error).message;
  }
}

describe(fieldOptionsOf.name, () => {
  it('offers an option per field a client sends, named by its label, mandatory where the field is required', () => {
    // One space for each run of them: commander aligns and wraps the descriptions.
    const help = everyKind.addOptions(new Command('add')).helpInformation().replace(/\s+/g, ' ');
    expect(help).toContain('--nick-name <nick-name> nick name: 1 to 10 characters, not only spaces');
    expect(help).toContain('--owner <id> owner id: a whole number from 1');
    expect(help).toContain('--size <size> size: small or large (the service defaults to small)');
    expect(help).toContain('--born-on <yyyy-mm-dd> born on: a date written YYYY-MM-DD');
    expect(help).not.toContain('--id');
    expect(parse(['--nick-name', 'Rex'])).toBe("error: required option '--owner <id>' not specified");
  });

  it('reads each option as its kind, leaving out an optional one not given', () => {
    expect(parse(['--nick-name', 'Rex', '--owner', '12'])).toEqual({ nickName: 'Rex', ownerId: 12 });
    expect(parse(['--nick-name', 'Rex', '--owner', '12', '--size', 'large', '--born-on', '2024-02-29'])).toEqual({
      nickName: 'Rex',
      ownerId: 12,
      size: 'large',
      bornOn: '2024-02-29',
    });
  });

  it.each([
    [['--owner', '1e3'], 'error: --owner must be a whole number from 1 to 99 (got 1e3)'],
    [['--owner', '100'], 'error: --owner must be a whole number from 1 to 99 (got 100)'],
    [['--owner', '1', '--size', 'huge'], 'error: --size must be one of small, large (got huge)'],
    [['--owner', '1', '--born-on', '2023-02-29'], 'error: --born-on must be a calendar date written YYYY-MM-DD, such as 2024-05-31 (got 2023-02-29)'],
  ])('refuses %j by the field’s rule, naming the option', (args, words) => {
    expect(parse(['--nick-name', 'Rex', ...args])).toBe(words);
  });

  it('heads a column per field with its label in capitals, an absent value an empty cell', () => {
    expect(everyKind.header).toEqual(['ID', 'NICK NAME', 'OWNER', 'SIZE', 'BORN ON']);
    expect(everyKind.row({ id: 3, nickName: 'Rex', ownerId: 12, bornOn: '2024-02-29' })).toEqual(['3', 'Rex', '12', '', '2024-02-29']);
  });
});
