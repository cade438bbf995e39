import type { PetstoreClient, PetstoreClientOptions } from '@petstore/client';
import type { OperationId } from '@petstore/contract';
import type { Command } from 'commander';

/** Everything the CLI touches outside itself, injected so that tests can run it in-process. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  env: Readonly<Record<string, string | undefined>>;
  /** Aborted by Ctrl-C (or SIGTERM): a command that runs until stopped ends cleanly then. */
  signal?: AbortSignal;
}

/** The operations the commands use, so that a test may hand in a fake as well as a client with a fake `fetch`. */
export type PetstoreApi = Pick<PetstoreClient, 'listPets' | 'iteratePets' | 'createPet' | 'getPet' | 'events'>;

export type ClientFactory = (options: PetstoreClientOptions) => PetstoreApi;

/** What a command needs from the program around it. */
export interface CommandContext {
  /** Output for people (tables, notices) and scripts (JSON); stderr has the API key redacted. */
  io: CliIo;
  /**
   * A client configured from the global options and the environment, for `command` to call `operation`, which names
   * the scope a refused key lacks; a usage error when there is no key.
   */
  connect(command: Command, operation: OperationId): PetstoreApi;
}
