import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

// A scratch project outside the workspace that installs @petstore/client as a user would, and drives the service.

const WORKSPACE = join(__dirname, '../../../..');
export const TSC = join(WORKSPACE, 'node_modules/typescript/bin/tsc');
const execFileAsync = promisify(execFile);

/** Runs a command; on failure, the error carries its output, not only the exit code. */
export async function run(
  command: string,
  args: string[],
  { timeoutMs = 60_000, ...options }: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<string> {
  try {
    return (await execFileAsync(command, args, { ...options, timeout: timeoutMs })).stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed:\n${stdout ?? ''}\n${stderr ?? ''}`, { cause: error });
  }
}

// What a user's program does, written once for both module systems; only how the client is loaded differs.
const DRIVE = `
async function drive(label) {
  const warnings = [];
  const client = new PetstoreClient({
    baseUrl: process.env.PETSTORE_URL,
    apiKey: process.env.PETSTORE_API_KEY,
    logger: { warn: (message) => warnings.push(message) },
  });
  const created = [];
  for (const n of [1, 2, 3]) {
    created.push(await client.createPet({ name: label + ' ' + n, categoryId: 7, status: PetStatus.Pending }));
  }
  // Plain JavaScript feeds each page's nextCursor back as it is: null on the first call and after the last page.
  const pages = [];
  let cursor = null;
  do {
    const page = await client.listPets({ limit: 2, cursor });
    pages.push(page.pets.map((pet) => pet.id));
    cursor = page.nextCursor;
  } while (cursor !== null);
  const controller = new AbortController();
  controller.abort();
  const aborted = await client.listPets({}, { signal: controller.signal }).then(
    () => 'not aborted',
    (error) => error.name,
  );
  const iterated = [];
  for await (const pet of client.iteratePets({ pageSize: 2 })) iterated.push(pet.id);
  let notFound;
  try {
    await client.getPet(987654321);
  } catch (error) {
    notFound = {
      name: error.name,
      isNotFound: error instanceof NotFoundError,
      isApiError: error instanceof PetstoreApiError,
      status: error.status,
      code: error.code,
    };
  }
  return { created, pages, iterated, notFound, warnings, aborted };
}
`;

export const ESM_PROGRAM = `import { NotFoundError, PetStatus, PetstoreApiError, PetstoreClient } from '@petstore/client';
${DRIVE}
console.log(JSON.stringify(await drive('esm')));
`;

export const CJS_PROGRAM = `'use strict';
const { NotFoundError, PetStatus, PetstoreApiError, PetstoreClient } = require('@petstore/client');
// Taken right after loading the client: every module that loading it pulled in.
const loaded = Object.keys(require.cache);
${DRIVE}
drive('cjs').then((result) => console.log(JSON.stringify({ ...result, loaded })));
`;

// Uses every exported type a consumer names; the @ts-expect-error lines fail the check if the typings decay to any.
const CONSUMER_TS = `import {
  NotFoundError,
  type NewPet,
  type Pet,
  type PetPage,
  PetStatus,
  PetstoreApiError,
  PetstoreClient,
  type PetstoreClientOptions,
  PetstoreError,
} from '@petstore/client';

const options: PetstoreClientOptions = { baseUrl: 'http://localhost:3000/v1', apiKey: 'pk_example', timeoutMs: 5_000, logger: console };

export async function main(client = new PetstoreClient(options)): Promise<string[]> {
  const newPet: NewPet = { name: 'Rex', categoryId: 1, status: PetStatus.Sold };
  const pet: Pet = await client.createPet(newPet, { idempotencyKey: 'key-1' });
  const page: PetPage = await client.listPets({ limit: 10, status: PetStatus.Available });
  const next: string | null = page.nextCursor;
  const following: PetPage = await client.listPets({ limit: 10, cursor: next }, { timeoutMs: 2_000, maxRetries: 0 });
  const lines = [...page.pets, ...following.pets].map((each) => \`\${each.id} \${each.name} \${each.status ?? ''}\`);
  for await (const each of client.iteratePets({ status: PetStatus.Pending, pageSize: 50 })) lines.push(each.name);
  try {
    await client.getPet(pet.id);
  } catch (error: unknown) {
    if (error instanceof NotFoundError) lines.push(\`gone: \${error.requestId ?? ''}\`);
    else if (error instanceof PetstoreApiError) lines.push(\`\${error.status} \${error.code}: \${error.message}\`);
    else if (error instanceof PetstoreError) lines.push(error.message);
    else throw error;
  }
  // @ts-expect-error statuses come from PetStatus only
  await client.listPets({ status: 'lost' });
  // @ts-expect-error a pet needs its categoryId
  await client.createPet({ name: 'Rex' });
  return next === null ? lines : [...lines, next];
}
`;

interface DriveResult {
  created: { id: number; name: string; categoryId: number; status: string }[];
  pages: number[][];
  iterated: number[];
  notFound: unknown;
  warnings: string[];
  aborted: string;
  loaded?: string[];
}

// Checked with --strict, compiled and run: what a TypeScript user of the published package ships.
const STRICT_PROGRAM_TS = `import { type Pet, type PetPage, PetStatus, PetstoreClient } from '@petstore/client';

const client = new PetstoreClient({ baseUrl: process.env['PETSTORE_URL'] ?? '', apiKey: process.env['PETSTORE_API_KEY'] ?? '' });
const created: Pet = await client.createPet({ name: 'typed', categoryId: 3, status: PetStatus.Available });
const page: PetPage = await client.listPets({ limit: 100, status: PetStatus.Available });
console.log(JSON.stringify({ created, listed: page.pets.map((pet: Pet) => pet.id) }));
`;

/** Only what a user's shell would pass: no way back into the workspace. */
const programEnv = (origin: string, apiKey: string): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH,
  PETSTORE_URL: `${origin}/v1`,
  PETSTORE_API_KEY: apiKey,
});

/** Writes one of the programs above into the scratch project and runs it against the service. */
export async function runProgram(dir: string, file: string, source: string, origin: string, apiKey: string): Promise<DriveResult> {
  writeFileSync(join(dir, file), source);
  return JSON.parse(await run(process.execPath, [file], { cwd: dir, env: programEnv(origin, apiKey) })) as DriveResult;
}

/** What DRIVE must have seen from the service, whichever module system loaded the client. */
export function expectDriven(result: DriveResult, label: string): void {
  expect(result.created).toEqual(
    [1, 2, 3].map((n) => ({ id: expect.any(Number), name: `${label} ${n}`, categoryId: 7, status: 'pending' })),
  );
  expect(result.pages.length).toBeGreaterThan(1);
  expect(result.iterated).toEqual(result.pages.flat());
  expect(result.iterated).toEqual([...new Set(result.iterated)].sort((a, b) => a - b));
  expect(result.iterated).toEqual(expect.arrayContaining(result.created.map((pet) => pet.id)));
  expect(result.notFound).toEqual({ name: 'NotFoundError', isNotFound: true, isApiError: true, status: 404, code: 'not_found' });
  expect(result.warnings).toEqual([expect.stringContaining('getPet')]);
  expect(result.aborted).toBe('AbortError');
}

export const STRICT_FLAGS = ['--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--lib', 'es2022,dom'];

/**
 * Type-checks CONSUMER_TS with --strict under a package.json of `type`; returns tsc's resolution trace.
 * No `--types`: tsc 6 defaults it to [] already, so no ambient @types leak in, and refuses `--types ''`.
 */
export async function typeCheckConsumer(dir: string, type: 'module' | 'commonjs'): Promise<string> {
  const folder = join(dir, type);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ type }));
  writeFileSync(join(folder, 'consumer.ts'), CONSUMER_TS);
  return run(process.execPath, [TSC, ...STRICT_FLAGS, '--noEmit', '--traceResolution', 'consumer.ts'], {
    cwd: folder,
  });
}

/** Compiles STRICT_PROGRAM_TS as an ES module, runs it, and returns what it printed. */
export async function compileAndRunStrict(
  dir: string,
  origin: string,
  apiKey: string,
): Promise<{ created: { id: number; name: string }; listed: number[] }> {
  const folder = join(dir, 'typed');
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ type: 'module' }));
  writeFileSync(join(folder, 'program.ts'), STRICT_PROGRAM_TS);
  // Declared by hand: a browser-and-Node package's user may have no @types/node.
  writeFileSync(join(folder, 'env.d.ts'), 'declare const process: { env: Record<string, string | undefined> };\n');
  await run(process.execPath, [TSC, ...STRICT_FLAGS, '--outDir', 'out', 'program.ts', 'env.d.ts'], {
    cwd: folder,
  });
  return JSON.parse(await run(process.execPath, ['out/program.js'], { cwd: folder, env: programEnv(origin, apiKey) })) as {
    created: { id: number; name: string };
    listed: number[];
  };
}
