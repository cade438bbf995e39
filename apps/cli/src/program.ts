import { LOCAL_BASE_URL, PetstoreError } from '@petstore/client';
import { API_VERSION, type OperationId } from '@petstore/contract';
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { registerEventsCommands } from './commands/events';
import { registerPetsCommands } from './commands/pets';
import type { CliIo, ClientFactory, PetstoreApi } from './context';
import { inCliWords } from './deprecation-words';
import { type Connection, describeFailure } from './failures';
import { parseServiceUrl } from './parsers';
import { commandLine, EXIT, pointToHelp, usageError } from './usage';

/** The interface version the CLI speaks; shown by `--version` and sent in its `User-Agent`. */
export const CLI_VERSION = API_VERSION;

interface GlobalOptions {
  url?: string;
  apiKey?: string;
}

/** The connection its command made is kept for the words of a refused key. */
interface Cli {
  program: Command;
  connection?: Connection;
}

/** Writes only through `io`, reads only `io.env`, reaches the service through `createClient`. */
function createCli(io: CliIo, createClient: ClientFactory): Cli {
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
    .configureOutput({ writeOut: io.stdout, writeErr: stderr });
  program.on('option:api-key', (key: string) => secrets.add(key));

  const cli: Cli = { program };
  const context = {
    io: safeIo,
    connect: (command: Command, operation: OperationId) => {
      const { client, connection } = connect(command, operation, safeIo, createClient);
      cli.connection = connection;
      return client;
    },
  };
  registerPetsCommands(program, context);
  registerEventsCommands(program, context);
  pointToHelp(program);
  return cli;
}

/** Runs one command line (without `node` and the script) and resolves to the exit code. */
export async function run(argv: readonly string[], io: CliIo, createClient: ClientFactory): Promise<number> {
  const cli = createCli(io, createClient);
  try {
    await cli.program.parseAsync(argv, { from: 'user' });
    return EXIT.ok;
  } catch (error) {
    // Help and --version also end in a CommanderError, with exit code 0; every other one is a usage error.
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    if (!(error instanceof PetstoreError)) throw error;
    // Through the program's writer rather than io.stderr, so that the key is redacted here too.
    const { writeErr = io.stderr } = cli.program.configureOutput();
    writeErr(describeFailure(error, cli.connection));
    return EXIT.apiError;
  }
}

function connect(command: Command, operation: OperationId, io: CliIo, createClient: ClientFactory): { client: PetstoreApi; connection: Connection } {
  const { url, apiKey: flagKey } = command.optsWithGlobals<GlobalOptions>();
  const apiKey = flagKey ?? io.env.PETSTORE_API_KEY;
  if (!apiKey) return usageError(command, 'no API key: set PETSTORE_API_KEY to your key (or pass --api-key)');
  const client = createClient({
    baseUrl: url ?? serviceUrlFromEnv(command, io.env.PETSTORE_URL) ?? LOCAL_BASE_URL,
    apiKey,
    userAgent: `petstore-cli/${CLI_VERSION}`,
    // The client's warnings are for the person at the terminal, never for stdout.
    logger: { warn: (message) => io.stderr(`${inCliWords(message, operation, commandLine(command))}\n`) },
  });
  return { client, connection: { operation, command: commandLine(command), keyFrom: flagKey === undefined ? 'PETSTORE_API_KEY' : '--api-key' } };
}

function serviceUrlFromEnv(command: Command, value: string | undefined): string | undefined {
  if (!value) return undefined;
  try {
    return parseServiceUrl(value);
  } catch (error) {
    if (!(error instanceof InvalidArgumentError)) throw error;
    return usageError(command, `PETSTORE_URL '${value}' is invalid. ${error.message}`);
  }
}
