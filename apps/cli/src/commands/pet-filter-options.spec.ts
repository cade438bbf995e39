import { filterEntries, filterFieldOf } from '@petstore/contract';
import { Command } from 'commander';
import { addFilterOptions, filtersFrom } from './pet-filter-options';

/** Parses `args` as `pets list`'s filter options: the filters, or the usage error's words. */
function parse(args: string[]): ReturnType<typeof filtersFrom> | string {
  const command = addFilterOptions(new Command('list')).exitOverride().configureOutput({ writeErr: () => undefined });
  try {
    command.parse(args, { from: 'user' });
    return filtersFrom(command, command.opts());
  } catch (error) {
    return (error as Error).message;
  }
}

describe(addFilterOptions.name, () => {
  it("offers an option per listPets filter, named by its field's label, with the filter's words", () => {
    // One space for each run of them: commander aligns and wraps the descriptions.
    const help = addFilterOptions(new Command('list')).helpInformation().replace(/\s+/g, ' ');
    expect(help).toContain('--status <status> only pets with this status: available, pending, sold');
    expect(help).toContain('--name <text> only pets whose name contains this text, in any case ("rex" finds "T-Rex")');
    expect(help).toContain('--category <id> only pets of this category');
    const flags = addFilterOptions(new Command('list')).options.map((option) => option.long);
    expect(flags).toEqual(filterEntries().map(([, spec]) => `--${filterFieldOf(spec).label.toLowerCase()}`));
  });
});

describe(filtersFrom.name, () => {
  it('reads each option as its kind, leaving out those not given', () => {
    expect(parse([])).toEqual({});
    expect(parse(['--category', '12', '--name', 'T-Rex', '--status', 'sold'])).toEqual({ status: 'sold', name: 'T-Rex', categoryId: 12 });
  });

  it.each([
    ['--status', 'lost', 'must be one of available, pending, sold (got lost)'],
    ['--category', '1.5', 'must be a whole number from 1 to 9007199254740991 (got 1.5)'],
    ['--name', '\u0007', 'must not contain control characters'],
  ])('refuses %s %j by the filter\'s rule, before anything is sent', (flag, value, why) => {
    expect(parse([flag, value])).toContain(`${flag} ${why}`);
  });
});
