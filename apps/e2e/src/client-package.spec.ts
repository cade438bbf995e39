import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type NodeProcess, spawnService, waitUntilLive } from '@petstore/testing';
import { TEST_KEY } from './support/test-key';

const WORKSPACE = join(__dirname, '../../..');
const DIST = join(WORKSPACE, 'dist/libs/client');
const TSC = join(WORKSPACE, 'node_modules/typescript/bin/tsc');
const execFileAsync = promisify(execFile);
// Under `npm test` the environment carries the workspace's npm_config_* (prefix included); the consumer's npm must not.
const NPM_ENV = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));

/** Runs a command to completion; on failure, the error carries its output rather than only the exit code. */
async function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<string> {
  try {
    return (await execFileAsync(command, args, { ...options, timeout: 60_000 })).stdout;
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

const ESM_PROGRAM = `import { NotFoundError, PetStatus, PetstoreApiError, PetstoreClient } from '@petstore/client';
${DRIVE}
console.log(JSON.stringify(await drive('esm')));
`;

const CJS_PROGRAM = `'use strict';
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

jest.setTimeout(120_000);

describe('the packed @petstore/client in a folder outside the workspace', () => {
  let dir: string;
  let service: NodeProcess;
  let packedFiles: string[];

  const runProgram = async (file: string, source: string): Promise<DriveResult> => {
    writeFileSync(join(dir, file), source);
    // Only what a user's shell would pass: no NODE_PATH or other way back into the workspace.
    const env = { PATH: process.env.PATH, PETSTORE_URL: `${service.origin}/v1`, PETSTORE_API_KEY: TEST_KEY };
    return JSON.parse(await run(process.execPath, [file], { cwd: dir, env })) as DriveResult;
  };

  function expectDriven(result: DriveResult, label: string): void {
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

  beforeAll(async () => {
    if (!existsSync(join(DIST, 'package.json'))) {
      throw new Error(`${DIST} is missing: run "CI=true NX_DAEMON=false npx nx build client" first`);
    }
    // realpath, so that paths in require.cache compare equal where the temporary folder is a symlink.
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'petstore-consumer-')));
    const database = `sqlite:${join(dir, 'db.sqlite')}`;
    const started = spawnService({ env: { API_KEYS: TEST_KEY, DATABASE_URL: database } }).then(async (sut) => {
      service = sut;
      await waitUntilLive(sut);
    });

    const installed = (async () => {
      const packOutput = await run('npm', ['pack', DIST, '--pack-destination', dir, '--json'], { cwd: dir, env: NPM_ENV });
      const [packed] = JSON.parse(packOutput) as { filename: string; files: { path: string }[] }[];
      packedFiles = packed.files.map((file) => file.path);
      await run('npm', ['init', '-y'], { cwd: dir, env: NPM_ENV });
      await run('npm', ['install', '--no-audit', '--no-fund', join(dir, packed.filename)], { cwd: dir, env: NPM_ENV });
    })();
    await Promise.all([started, installed]);
  });

  afterAll(async () => {
    if (service && service.child.exitCode === null) {
      service.child.kill('SIGTERM');
      await service.exited;
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('holds only the build output, with no dependencies', () => {
    expect(packedFiles.sort()).toEqual(['README.md', 'index.cjs', 'index.d.cts', 'index.d.ts', 'index.js', 'package.json']);
    const manifest = JSON.parse(readFileSync(join(dir, 'node_modules/@petstore/client/package.json'), 'utf8'));
    expect(manifest).not.toHaveProperty('dependencies');
    expect(manifest).not.toHaveProperty('peerDependencies');
  });

  it('drives the live service from an ES module', async () => {
    expectDriven(await runProgram('drive.mjs', ESM_PROGRAM), 'esm');
  });

  it('drives the live service from CommonJS, loading no module but its own', async () => {
    const result = await runProgram('drive.cjs', CJS_PROGRAM);
    expectDriven(result, 'cjs');
    // The program itself and the client's one file: no @nestjs/*, class-validator, class-transformer, reflect-metadata, typeorm.
    expect(result.loaded).toEqual([join(dir, 'drive.cjs'), join(dir, 'node_modules/@petstore/client/index.cjs')]);
  });

  // tsc 6 defaults `types` to [], so no ambient @types can leak in; `--types ''` is refused as an empty argument.
  it.each([
    ['module', 'index.d.ts'],
    ['commonjs', 'index.d.cts'],
  ])('type-checks a consumer with --strict as "type": "%s", against %s', async (type, typings) => {
    const folder = join(dir, type);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'package.json'), JSON.stringify({ type }));
    writeFileSync(join(folder, 'consumer.ts'), CONSUMER_TS);
    const flags = ['--strict', '--noEmit', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022'];
    // run() rejects on a non-zero exit, with tsc's diagnostics in the message.
    const trace = await run(process.execPath, [TSC, ...flags, '--lib', 'es2022,dom', '--traceResolution', 'consumer.ts'], {
      cwd: folder,
    });
    expect(trace).toContain(`'@petstore/client' was successfully resolved to '${join(dir, 'node_modules/@petstore/client', typings)}'`);
  });
});
