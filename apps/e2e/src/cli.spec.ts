import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { freePort, type NodeProcess, readTextTable, spawnService, startWebhookReceiver, waitUntilLive } from '@petstore/testing';
import { Webhook } from 'standardwebhooks';
import { API_VERSION } from '@petstore/contract';
import { TEST_KEY } from './support/test-key';

const WORKSPACE = join(__dirname, '../../..');
const BUILT_CLI = join(WORKSPACE, 'dist/apps/cli/main.js');
const MORE = /^more pets: repeat this command with --cursor ([A-Za-z0-9_-]+) for the next page, or with --all for every page\n$/;

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
  /** A stored key that holds only pets:read, made before the service starts. */
  let readOnlyKey: string;

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

  /** The URLs the service has logged a response to, once it has logged one to `last` (lines are written in order). */
  async function requestedUrls(last: string): Promise<string[]> {
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; await sleep(50)) {
      const urls = service.stdout().split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line).url as string | undefined);
      if (urls.includes(last)) return urls.filter((url): url is string => url !== undefined);
    }
    throw new Error(`the service logged no request to ${last}`);
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
    const database = `sqlite:${join(dir, 'db.sqlite')}`;
    const created = await promisify(execFile)(process.execPath, [join(WORKSPACE, 'dist/apps/api/keys.js'), 'create', '--name', 'cli', '--scopes', 'pets:read'], {
      env: { PATH: process.env.PATH ?? '', DATABASE_URL: database },
    });
    readOnlyKey = created.stdout.trim();
    service = await spawnService({ env: { API_KEYS: TEST_KEY, DATABASE_URL: database } });
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
      expect(await petstore(['--version'], {})).toEqual({ code: 0, stdout: `${API_VERSION}\n`, stderr: '' });
    });
  });

  describe('pets list', () => {
    it('prints the first page as a table', async () => {
      const run = await petstore(['pets', 'list']);

      expect(run.code).toBe(0);
      expect(run.stdout.split('\n')[0]).toMatch(/^ID {2}NAME {2}CATEGORY {2}STATUS\b/);
      expect(readTextTable(run.stdout)).toEqual([
        { ID: '1', NAME: 'Rex', CATEGORY: '1', STATUS: 'available' },
        { ID: '2', NAME: 'Bo', CATEGORY: '2', STATUS: 'pending' },
        { ID: '3', NAME: 'Mia', CATEGORY: '3', STATUS: 'available' },
        { ID: '4', NAME: 'Ned', CATEGORY: '4', STATUS: 'sold' },
        { ID: '5', NAME: 'Oli', CATEGORY: '5', STATUS: 'available' },
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

    it('finds pets by --name in any case, and narrows by --category', async () => {
      const byName = await petstore(['pets', 'list', '--name', 'I', '--json']);
      expect(JSON.parse(byName.stdout).map((pet: { name: string }) => pet.name)).toEqual(['Mia', 'Oli']);
      const both = await petstore(['pets', 'list', '--name', 'MIA', '--category', '3']);
      expect(readTextTable(both.stdout)).toEqual([{ ID: '3', NAME: 'Mia', CATEGORY: '3', STATUS: 'available' }]);
      const none = await petstore(['pets', 'list', '--name', 'mia', '--category', '4', '--json']);
      expect({ code: none.code, stdout: none.stdout.trim() }).toEqual({ code: 0, stdout: '[]' });
    });

    it('prints one page of --limit pets and names on stderr the --cursor of the next page', async () => {
      const run = await petstore(['pets', 'list', '--limit', '2']);

      expect(run.code).toBe(0);
      expect(run.stdout.trim().split('\n')).toHaveLength(3);
      expect(run.stderr).toMatch(MORE);
    });

    it('continues page by page with the --cursor that stderr names, until the last page says nothing more', async () => {
      const names: string[][] = [];
      const hints: string[] = [];
      for (let cursor: string[] = []; ; ) {
        const run = await petstore(['pets', 'list', '--status', 'available', '--limit', '2', ...cursor]);
        expect(run.code).toBe(0);
        names.push(run.stdout.trim().split('\n').slice(1).map((line) => line.split(/\s+/)[1]));
        hints.push(run.stderr);
        const next = MORE.exec(run.stderr)?.[1];
        if (next === undefined) break;
        cursor = ['--cursor', next];
      }

      expect(names).toEqual([['Rex', 'Mia'], ['Oli']]);
      expect(hints).toEqual([expect.stringMatching(MORE), '']);
    });

    it('keeps stdout a bare JSON array with --json, the --cursor of the next page going to stderr', async () => {
      const first = await petstore(['pets', 'list', '--limit', '3', '--json']);
      const cursor = MORE.exec(first.stderr)?.[1] ?? 'none';
      const rest = await petstore(['pets', 'list', '--limit', '3', '--json', '--cursor', cursor]);

      expect(JSON.parse(first.stdout)).toEqual(seeded.slice(0, 3));
      expect(first.stderr).toMatch(MORE);
      expect(JSON.parse(rest.stdout)).toEqual(seeded.slice(3));
      expect(rest.stderr).toBe('');
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
      expect(readTextTable(run.stdout)).toEqual([{ ID: '2', NAME: 'Bo', CATEGORY: '2', STATUS: 'pending' }]);
      expect(run.stderr).toBe(
        'petstore: "petstore pets get" is deprecated by the service and stops working after 2030-12-05; use "petstore pets list" instead.\n',
      );
    });

    it('prints only the pet as JSON on stdout with --json', async () => {
      const run = await petstore(['pets', 'get', '4', '--json']);

      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout)).toEqual(seeded[3]);
      expect(run.stderr).toMatch(/"petstore pets get" is deprecated/);
    });
  });

  describe('pets add', () => {
    it('adds a pet and prints it as a table', async () => {
      const run = await petstore(['pets', 'add', '--name', 'Pip', '--category', '6']);

      expect(run.code).toBe(0);
      expect(readTextTable(run.stdout)).toEqual([{ ID: expect.stringMatching(/^\d+$/), NAME: 'Pip', CATEGORY: '6', STATUS: 'available' }]);
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

    it('for an --idempotency-key used before with another pet (422), with the message of the Error body', async () => {
      const first = await petstore(['pets', 'add', '--name', 'Ray', '--category', '8', '--idempotency-key', 'cli-e2e-422']);
      const other = await petstore(['pets', 'add', '--name', 'Sam', '--category', '8', '--idempotency-key', 'cli-e2e-422']);

      expect(first.code).toBe(0);
      expect(other).toEqual({ code: 1, stdout: '', stderr: expect.stringMatching(/^error: .+ \(idempotency_key_reused, HTTP 422\)\n$/) });
    });

    it('for a key in PETSTORE_API_KEY that the service refuses (401), naming the variable, not printing the key', async () => {
      const wrongKey = 'pk_wrong_0123456789abcdef';
      const run = await petstore(['pets', 'list'], { ...env, PETSTORE_API_KEY: wrongKey });

      expect(run).toEqual({
        code: 1,
        stdout: '',
        stderr:
          'error: the service refused the API key in PETSTORE_API_KEY (unauthorized, HTTP 401); set PETSTORE_API_KEY to a valid key (or pass one with --api-key)\n',
      });
      expect(run.stderr).not.toContain(wrongKey);
    });

    it('for a key passed with --api-key that the service refuses (401), naming --api-key and PETSTORE_API_KEY', async () => {
      const wrongKey = 'pk_wrong_0123456789abcdef';
      const run = await petstore(['pets', 'list', '--api-key', wrongKey], { PETSTORE_URL: env.PETSTORE_URL });

      expect(run).toEqual({
        code: 1,
        stdout: '',
        stderr:
          'error: the service refused the API key passed with --api-key (unauthorized, HTTP 401); pass a valid key, or set PETSTORE_API_KEY to one and leave --api-key out\n',
      });
      expect(run.stderr).not.toContain(wrongKey);
    });

    it('for a key without the scope of the command (403), naming the scope', async () => {
      const run = await petstore(['pets', 'add', '--name', 'Tom', '--category', '1'], { ...env, PETSTORE_API_KEY: readOnlyKey });

      expect(run).toEqual({
        code: 1,
        stdout: '',
        stderr:
          "error: the API key in PETSTORE_API_KEY does not hold the pets:write scope that 'petstore pets add' needs (insufficient_scope, HTTP 403); use a key that holds pets:write\n",
      });
      expect(run.stderr).not.toContain(readOnlyKey);
    });

    it('for an address where nothing listens', async () => {
      const url = `http://127.0.0.1:${await freePort()}/v1`;
      const run = await petstore(['pets', 'list', '--url', url]);

      expect(run).toEqual({ code: 1, stdout: '', stderr: expect.stringMatching(/^error: Could not reach http:\/\/127\.0\.0\.1:\d+/) });
    });
  });

  describe('exit code 2: a usage error, before any request', () => {
    it.each([
      [['pets', 'adopt'], "unknown command 'adopt'", 'petstore pets'],
      [['pets', 'list', '--verbose'], "unknown option '--verbose'", 'petstore pets list'],
      [['pets', 'list', '--limit', 'ten'], '--limit must be a whole number from 1 to 100 (got ten)', 'petstore pets list'],
      [['pets', 'list', '--limit', '0'], '--limit must be a whole number from 1 to 100 (got 0)', 'petstore pets list'],
      [['pets', 'list', '--status', 'lost'], '--status must be one of available, pending, sold (got lost)', 'petstore pets list'],
      [['pets', 'list', '--cursor', 'p1.1'], '--cursor must contain only the characters A-Z, a-z, 0-9, _ and - (got p1.1)', 'petstore pets list'],
      [['pets', 'get', 'rex'], 'id must be a whole number from 1 to 9007199254740991 (got rex)', 'petstore pets get'],
      [['pets', 'add', '--name', 'Rex'], "required option '--category <id>' not specified", 'petstore pets add'],
      [['pets', 'add', '--name', '   ', '--category', '1'], '--name must not be empty or only whitespace (got "   ")', 'petstore pets add'],
      [['pets', 'add', '--name', 'Rex', '--category', 'cats'], '--category must be a whole number from 1 to 9007199254740991 (got cats)', 'petstore pets add'],
      [
        ['pets', 'add', '--name', 'Rex', '--category', '1', '--idempotency-key', 'order 42'],
        '--idempotency-key must contain only visible ASCII characters (! to ~, no spaces) (got "order 42")',
        'petstore pets add',
      ],
      [['--url', 'localhost:3000', 'pets', 'list'], "option '--url <url>' argument 'localhost:3000' is invalid. Expected an http or https URL.", 'petstore'],
    ])('for %j, in words that say why, then the command for its usage', async (args, why, command) => {
      const run = await petstore(args);

      expect(run).toEqual({ code: 2, stdout: '', stderr: `error: ${why}\nRun '${command} --help' for usage.\n` });
    });

    it('for --limit 101, refused by the CLI itself: the service sees no request', async () => {
      const refused = await petstore(['pets', 'list', '--limit', '101']);
      const accepted = await petstore(['pets', 'list', '--limit', '100']);

      expect(refused).toEqual({
        code: 2,
        stdout: '',
        stderr: "error: --limit must be a whole number from 1 to 100 (got 101)\nRun 'petstore pets list --help' for usage.\n",
      });
      expect(accepted.code).toBe(0);
      expect(await requestedUrls('/v1/pets?limit=100')).not.toContain('/v1/pets?limit=101');
    });

    it('for a missing API key, naming PETSTORE_API_KEY', async () => {
      const run = await petstore(['pets', 'list'], { PETSTORE_URL: env.PETSTORE_URL });

      expect(run).toEqual({
        code: 2,
        stdout: '',
        stderr: "error: no API key: set PETSTORE_API_KEY to your key (or pass --api-key)\nRun 'petstore pets list --help' for usage.\n",
      });
    });
  });

  describe('events listen', () => {
    it('prints each pet created as a JSON line and forwards it signed, verifiable with the secret it printed; Ctrl-C ends it with 0', async () => {
      const hooks = await startWebhookReceiver();
      const child = spawn(process.execPath, [BUILT_CLI, 'events', 'listen', '--json', '--forward-to', hooks.url], {
        env: { PATH: process.env.PATH ?? '', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => (stdout += chunk));
      child.stderr.on('data', (chunk) => (stderr += chunk));
      const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
      try {
        for (const deadline = Date.now() + 30_000; !stderr.includes('Listening for events'); await sleep(20)) {
          if (Date.now() > deadline || child.exitCode !== null) throw new Error(`never listening:\n${stderr}`);
        }
        const names = ['Ada', 'Bix', 'Cyd'];
        for (const name of names) {
          const created = await fetch(`${service.origin}/v1/pets`, {
            method: 'POST',
            headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
            body: JSON.stringify({ name, categoryId: 2 }),
          });
          expect(created.status).toBe(201);
        }
        expect(await hooks.waitFor(() => hooks.received.length === 3)).toBe(true);
        for (const deadline = Date.now() + 30_000; stdout.split('\n').length <= 3 && Date.now() < deadline; await sleep(20));
        child.kill('SIGINT');
        expect(await exited).toBe(0);

        const lines = stdout.trim().split('\n').map((line) => JSON.parse(line) as { id: number; type: string; data: { name: string } });
        expect(lines.map(({ type, data }) => [type, data.name])).toEqual(names.map((name) => ['pet.created', name]));
        expect(lines.every(({ id }, index) => index === 0 || id > lines[index - 1].id)).toBe(true);
        const secret = /shown once: (whsec_\S+)/.exec(stderr)?.[1] as string;
        for (const [index, delivery] of hooks.received.entries()) {
          const { id, ...body } = lines[index];
          expect(new Webhook(secret).verify(delivery.body, delivery.headers as Record<string, string>)).toEqual(body);
          expect(delivery.webhookId).toBe(`msg_stream_${id}`);
        }
        expect(stderr).toMatch(new RegExp(`-> ${lines[2].id} forwarded: 204 in \\d+ ms\n$`));
        expect(stdout + stderr).not.toContain(TEST_KEY);
      } finally {
        if (child.exitCode === null) child.kill('SIGKILL');
        await hooks.close();
      }
    });
  });
});
