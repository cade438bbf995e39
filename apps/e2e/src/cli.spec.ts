import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, type NodeProcess, spawnService, waitUntilLive } from '@petstore/testing';
import { TEST_KEY } from './support/test-key';

const BUILT_CLI = join(__dirname, '../../../dist/apps/cli/main.js');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}


// The built `petstore` CLI as a user runs it (`node dist/apps/cli/main.js`), against the built service.
describe('the petstore CLI', () => {
  let dir: string;
  let service: NodeProcess;
  let env: Record<string, string>;

  /** Runs the CLI with exactly `env` (plus PATH), and checks what every run must: the key is never printed. */
  async function petstore(args: string[], runEnv = env): Promise<Run> {
    const child = spawn(process.execPath, [BUILT_CLI, ...args], {
      env: { PATH: process.env.PATH ?? '', ...runEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stdout + stderr).not.toContain(TEST_KEY);
    return { code, stdout, stderr };
  }

  const seeded = [
    { name: 'Rex', categoryId: 1, status: 'available' },
    { name: 'Bo', categoryId: 2, status: 'pending' },
    { name: 'Mia', categoryId: 3, status: 'available' },
    { name: 'Ned', categoryId: 4, status: 'sold' },
    { name: 'Oli', categoryId: 5, status: 'available' },
  ].map((pet, index) => ({ id: index + 1, ...pet }));

  beforeAll(async () => {
    if (!existsSync(BUILT_CLI)) throw new Error(`${BUILT_CLI} is missing: run "npx nx build cli" first`);
    dir = mkdtempSync(join(tmpdir(), 'petstore-cli-'));
    service = await spawnService({ env: { API_KEYS: TEST_KEY, DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}` } });
    await waitUntilLive(service);
    env = { PETSTORE_URL: `${service.origin}/v1`, PETSTORE_API_KEY: TEST_KEY };
    // Seeded over HTTP, not through the CLI, so that the listing tests do not depend on the add command.
    for (const { id: _id, ...pet } of seeded) {
      const response = await fetch(`${service.origin}/v1/pets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify(pet),
      });
      expect(response.status).toBe(201);
    }
  });

  afterAll(async () => {
    service?.child.kill('SIGTERM');
    await service?.exited;
    rmSync(dir, { recursive: true, force: true });
  });

  describe('--help', () => {
    it.each([[['--help']], [['pets', '--help']], [['pets', 'list', '--help']], [['pets', 'add', '--help']], [['pets', 'get', '--help']]])(
      'prints the usage of %j on stdout and exits 0',
      async (args) => {
        const run = await petstore(args, {});

        expect(run).toEqual({ code: 0, stdout: expect.stringMatching(/^Usage: petstore/), stderr: '' });
      },
    );

    it('prints the version with --version', async () => {
      expect(await petstore(['--version'], {})).toEqual({ code: 0, stdout: '1.0.0\n', stderr: '' });
    });
  });

  describe('pets list', () => {
    it('prints the first page as a table', async () => {
      const run = await petstore(['pets', 'list']);

      expect(run.code).toBe(0);
      expect(run.stdout.split('\n')).toEqual([
        'ID  NAME  CATEGORY  STATUS',
        '1   Rex   1         available',
        '2   Bo    2         pending',
        '3   Mia   3         available',
        '4   Ned   4         sold',
        '5   Oli   5         available',
        '',
      ]);
      expect(run.stderr).toBe('');
    });

    it('prints a JSON array and nothing else on stdout with --json', async () => {
      const run = await petstore(['pets', 'list', '--json']);

      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout)).toEqual(seeded);
      expect(run.stderr).toBe('');
    });

    it('filters by --status', async () => {
      const run = await petstore(['pets', 'list', '--status', 'available', '--json']);

      expect(JSON.parse(run.stdout).map((pet: { name: string }) => pet.name)).toEqual(['Rex', 'Mia', 'Oli']);
    });

    it('prints one page of --limit pets and says on stderr that there are more', async () => {
      const run = await petstore(['pets', 'list', '--limit', '2']);

      expect(run.code).toBe(0);
      expect(run.stdout.trim().split('\n')).toHaveLength(3);
      expect(run.stderr).toBe('more pets: use --all\n');
    });

    it('follows every page with --all', async () => {
      const json = await petstore(['pets', 'list', '--limit', '2', '--all', '--json']);
      const table = await petstore(['pets', 'list', '--status', 'available', '--limit', '2', '--all']);

      expect(json.code).toBe(0);
      expect(JSON.parse(json.stdout)).toEqual(seeded);
      expect(table.stdout.trim().split('\n').map((line) => line.split(/\s+/)[1])).toEqual(['NAME', 'Rex', 'Mia', 'Oli']);
      expect(table.stderr).toBe('');
    });
  });

  describe('pets get', () => {
    it('prints the pet, with the deprecation notice on stderr', async () => {
      const run = await petstore(['pets', 'get', '2']);

      expect(run.code).toBe(0);
      expect(run.stdout).toBe('ID  NAME  CATEGORY  STATUS\n2   Bo    2         pending\n');
      expect(run.stderr).toBe(
        'petstore: getPet is deprecated by the service and will be removed after Thu, 05 Dec 2030 00:00:00 GMT; use /v1/pets instead.\n',
      );
    });

    it('prints only the pet as JSON on stdout with --json', async () => {
      const run = await petstore(['pets', 'get', '4', '--json']);

      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout)).toEqual(seeded[3]);
      expect(run.stderr).toMatch(/getPet is deprecated/);
    });
  });

  describe('pets add', () => {
    it('adds a pet and prints it as a table', async () => {
      const run = await petstore(['pets', 'add', '--name', 'Pip', '--category', '6']);

      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^ID +NAME +CATEGORY +STATUS\n\d+ +Pip +6 +available\n$/);
      expect(run.stderr).toBe('');
    });

    it('adds a pet with --status and prints it as JSON, as the service then serves it', async () => {
      const run = await petstore(['pets', 'add', '--name', 'Quinn', '--category', '7', '--status', 'sold', '--json']);
      const pet = JSON.parse(run.stdout);

      expect(run.code).toBe(0);
      expect(pet).toEqual({ id: expect.any(Number), name: 'Quinn', categoryId: 7, status: 'sold' });
      expect(JSON.parse((await petstore(['pets', 'get', String(pet.id), '--json'])).stdout)).toEqual(pet);
    });
  });

  describe('exit code 1: the service refused or could not be reached', () => {
    it('for a pet that does not exist (404)', async () => {
      const run = await petstore(['pets', 'get', '999']);

      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/^error: .+ \(not_found, HTTP 404\)$/m);
      expect(run.stdout).toBe('');
    });

    it('for an invalid pet, with the message of the Error body (400)', async () => {
      const run = await petstore(['pets', 'add', '--name', '   ', '--category', '1']);

      expect(run).toEqual({ code: 1, stdout: '', stderr: expect.stringMatching(/^error: Invalid request body: name .+ \(validation_failed, HTTP 400\)\n$/) });
    });

    it('for a key the service does not accept (401), without printing that key either', async () => {
      const wrongKey = 'pk_wrong_0123456789abcdef';
      const run = await petstore(['pets', 'list'], { ...env, PETSTORE_API_KEY: wrongKey });

      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/^error: .+ \(unauthorized, HTTP 401\)\n$/);
      expect(run.stdout + run.stderr).not.toContain(wrongKey);
    });

    it('for an address where nothing listens', async () => {
      const url = `http://127.0.0.1:${await freePort()}/v1`;
      const run = await petstore(['pets', 'list', '--url', url]);

      expect(run).toEqual({ code: 1, stdout: '', stderr: expect.stringMatching(/^error: Could not reach http:\/\/127\.0\.0\.1:\d+/) });
    });
  });

  describe('exit code 2: a usage error, before any request', () => {
    it.each([
      [['pets', 'adopt'], /unknown command 'adopt'/],
      [['pets', 'list', '--verbose'], /unknown option '--verbose'/],
      [['pets', 'list', '--limit', 'ten'], /'--limit <n>' argument 'ten' is invalid/],
      [['pets', 'list', '--status', 'lost'], /Allowed choices are available, pending, sold/],
      [['pets', 'get', 'rex'], /value 'rex' is invalid for argument 'id'/],
      [['pets', 'add', '--name', 'Rex'], /required option '--category <id>' not specified/],
      [['pets', 'add', '--name', 'Rex', '--category', 'cats'], /'--category <id>' argument 'cats' is invalid/],
      [['--url', 'localhost:3000', 'pets', 'list'], /'--url <url>' argument 'localhost:3000' is invalid/],
    ])('for %j', async (args, message) => {
      const run = await petstore(args);

      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(run.stdout).toBe('');
    });

    it('for a missing API key', async () => {
      const run = await petstore(['pets', 'list'], { PETSTORE_URL: env.PETSTORE_URL });

      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/^error: no API key: pass --api-key or set PETSTORE_API_KEY$/m);
    });
  });
});
