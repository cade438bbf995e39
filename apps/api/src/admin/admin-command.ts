import { type Command, CommanderError, InvalidArgumentError } from 'commander';

// What the admin commands (npm run keys, npm run webhooks) share.

/** A time as the admin commands show it: UTC to the second; `-` for none. */
export const shownTime = (ms: number | null) => (ms === null ? '-' : new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z'));

/** Prints a listing on stdout: the rows as JSON with `--json`, else a tab-separated table under its header. */
export function printListing<T>(rows: T[], json: boolean | undefined, header: string[], cells: (row: T) => Array<string | number>): void {
  const text = json ? JSON.stringify(rows, null, 2) : [header, ...rows.map(cells)].map((line) => line.join('\t')).join('\n');
  process.stdout.write(`${text}\n`);
}

/** An option's parser from a function that throws naming the problem: commander reports it as a usage error. */
export const optionParser =
  <T>(parse: (text: string) => T) =>
  (text: string): T => {
    try {
      return parse(text);
    } catch (error) {
      throw new InvalidArgumentError((error as Error).message);
    }
  };

/** Says on stderr why nothing was done: exit code 1. */
export function nothingDone(reason: string): void {
  process.stderr.write(`${reason}\n`);
  process.exitCode = 1;
}

/** Runs the command line. Exit codes: 0 done, 1 nothing done (or a failure, named on stderr), 2 a mistaken command line. */
export function runAdminCommand(program: Command): void {
  program.parseAsync().catch((error: unknown) => {
    // Help ends in a CommanderError with exit code 0; every other one is a mistaken command line.
    if (error instanceof CommanderError) {
      process.exitCode = error.exitCode === 0 ? 0 : 2;
      return;
    }
    process.stderr.write(`${program.name()}: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
