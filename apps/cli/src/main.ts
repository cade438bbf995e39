import { PetstoreClient } from '@petstore/client';
import { run } from './program';

run(
  process.argv.slice(2),
  { stdout: (text) => process.stdout.write(text), stderr: (text) => process.stderr.write(text), env: process.env },
  (options) => new PetstoreClient(options),
).then(
  // exitCode rather than exit(): a large --json output piped to another program is written out in full first.
  (code) => (process.exitCode = code),
  (error: unknown) => {
    process.stderr.write(`petstore: unexpected failure: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
