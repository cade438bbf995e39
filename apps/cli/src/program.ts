import { LOCAL_BASE_URL, PetstoreApiError, PetstoreError } from '@petstore/client';
import { API_VERSION } from '@petstore/contract';
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { registerPetsCommands } from './commands/pets';
import type { CliIo, ClientFactory, PetstoreApi } from './context';
import { parseServiceUrl } from './parsers';

/** Version of the CLI, the interface version it speaks; shown by `--version` and sent in its `User-Agent`. */
export const CLI_VERSION = API_VERSION;

/** Exit codes: scripts tell a failed call (worth a retry or a look at the service) from a mistaken command line. */
export const EXIT = { ok: 0, apiError: 1, usage: 2 } as const;

interface GlobalOptions {
  url?: string;
  apiKey?: string;
}

/** The `petstore` program, writing only through `io`, reading only `io.env`, reaching the service through `createClient`. */
export function createProgram(io: CliIo, createClient: ClientFactory): Command {
  // Commander echoes rejected argument values in its errors, so a key typed in the wrong place could be printed back.
  const secrets = new Set<string>();
  if (io.env.PETSTORE_API_KEY) secrets.add(io.env.PETSTORE_API_KEY);
  const stderr = (text: string) => io.stderr([...secrets].reduce((out, secret) => out.split(secret).join('[redacted]'), text));
  const safeIo: CliIo = { ...io, stderr };

  const program = new Command('petstore')
    .description('Manage the pets of a Pet Store service from the shell.')
    .version(CLI_VERSION)
    .option('--url <url>', `service address, ending in /v1 (default: $PETSTORE_URL, else ${LOCAL_BASE_URL})`, parseServiceUrl)
    .option('--api-key <key>', 'API key (default: $PETSTORE_API_KEY, the safer way: a flag shows in the process list)')
    .addHelpText(
      'after',
      '\nEnvironment:\n  PETSTORE_URL       service address, ending in /v1\n  PETSTORE_API_KEY   API key\n' +
        '\nExit codes: 0 success, 1 API or network error, 2 usage error.',
    )
    // Set before the subcommands are made: commander copies these settings into each of them.
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: stderr })
    .showHelpAfterError('(add --help for usage)');
  program.on('option:api-key', (key: string) => secrets.add(key));

  registerPetsCommands(program, { io: safeIo, connect: (command) => connect(command, safeIo, createClient) });
  return program;
}

/** Runs one command line (without `node` and the script) and resolves to the exit code. */
export async function run(argv: readonly string[], io: CliIo, createClient: ClientFactory): Promise<number> {
  const program = createProgram(io, createClient);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return EXIT.ok;
  } catch (error) {
    // Help and --version also end in a CommanderError, with exit code 0; every other one is a usage error.
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    if (!(error instanceof PetstoreError)) throw error;
    // Through the program's writer rather than io.stderr, so that the key is redacted here too.
    const { writeErr = io.stderr } = program.configureOutput();
    writeErr(
      error instanceof PetstoreApiError
        ? `error: ${error.message} (${error.code}, HTTP ${error.status})\n`
        : `error: ${error.message}\n`,
    );
    return EXIT.apiError;
  }
}

function connect(command: Command, io: CliIo, createClient: ClientFactory): PetstoreApi {
  const { url, apiKey = io.env.PETSTORE_API_KEY } = command.optsWithGlobals<GlobalOptions>();
  if (!apiKey) return usageError(command, 'error: no API key: pass --api-key or set PETSTORE_API_KEY');
  return createClient({
    baseUrl: url ?? serviceUrlFromEnv(command, io.env.PETSTORE_URL) ?? LOCAL_BASE_URL,
    apiKey,
    userAgent: `petstore-cli/${CLI_VERSION}`,
    // The client's warnings (getPet's deprecation) are notices for the person at the terminal, never for stdout.
    logger: { warn: (message) => io.stderr(`${message}\n`) },
  });
}

function serviceUrlFromEnv(command: Command, value: string | undefined): string | undefined {
  if (!value) return undefined;
  try {
    return parseServiceUrl(value);
  } catch (error) {
    if (!(error instanceof InvalidArgumentError)) throw error;
    return usageError(command, `error: PETSTORE_URL '${value}' is invalid. ${error.message}`);
  }
}

function usageError(command: Command, message: string): never {
  command.error(message, { exitCode: EXIT.usage, code: 'petstore.usage' });
}
