import type { Command } from 'commander';

/** Exit codes: scripts tell a failed call (worth a retry or a look at the service) from a mistaken command line. */
export const EXIT = { ok: 0, apiError: 1, usage: 2 } as const;

/** Ends `command` as a usage error: "error: <message>" on stderr, then the line pointing to its help. */
export function usageError(command: Command, message: string): never {
  command.error(`error: ${message}`, { exitCode: EXIT.usage, code: 'petstore.usage' });
}

/**
 * Makes every usage error of `command` and its subcommands end with the help command of the one that refused it,
 * e.g. "Run 'petstore pets add --help' for usage.": a command to copy, where "(add --help for usage)" read like one
 * called add.
 */
export function pointToHelp(command: Command): void {
  command.showHelpAfterError(`Run '${commandLine(command)} --help' for usage.`);
  for (const subcommand of command.commands) pointToHelp(subcommand);
}

/** The words that run `command`, e.g. "petstore pets add". */
export function commandLine(command: Command): string {
  const names: string[] = [];
  for (let at: Command | null = command; at; at = at.parent) names.unshift(at.name());
  return names.join(' ');
}
