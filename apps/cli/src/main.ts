import { PetstoreClient } from '@petstore/client';
import { run } from './program';

// Ctrl-C (or an orchestrator's SIGTERM) ends a command that runs until stopped, such as `events listen`, cleanly.
const stopped = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    stopped.abort();
    // A command that does not watch for it (a list, an add) is stopped as the signal would have without this handler.
    setTimeout(() => process.exit(signal === 'SIGINT' ? 130 : 143), 1_000).unref();
  });
}

run(
  process.argv.slice(2),
  { stdout: (text) => process.stdout.write(text), stderr: (text) => process.stderr.write(text), env: process.env, signal: stopped.signal },
  (options) => new PetstoreClient(options),
).then(
  // exitCode rather than exit(): a large --json output piped to another program is written out in full first.
  (code) => (process.exitCode = code),
  (error: unknown) => {
    process.stderr.write(`petstore: unexpected failure: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
