import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { ForbiddenError, PetstoreClient } from '@petstore/client';
import { type NodeProcess, spawnService, waitUntilLive } from '@petstore/testing';
import { TEST_KEY } from './support/test-key';

const WORKSPACE = join(__dirname, '../../..');
const BUILT_CLI = join(WORKSPACE, 'dist/apps/cli/main.js');

// `npm run keys -- …` from a shell, against the database a running service uses.
describe('key administration (npm run keys)', () => {
  let dir: string;
  let service: NodeProcess;
  const env = () => ({ PATH: process.env.PATH ?? '', DATABASE_URL: `sqlite:${join(dir, 'petstore.sqlite')}` });
  // --ignore-scripts skips prekeys's build (done before this suite): the command runs the built dist/apps/api/keys.js.
  const keys = (...args: string[]) =>
    promisify(execFile)('npm', ['run', '--ignore-scripts', '--silent', 'keys', '--', ...args], { cwd: WORKSPACE, env: env() });
  const list = (key: string) => fetch(`${service.origin}/v1/pets`, { headers: { authorization: `Bearer ${key}` } });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'petstore-keys-'));
    service = await spawnService({ env: { ...env(), API_KEYS: TEST_KEY } });
    await waitUntilLive(service);
  });
  afterAll(async () => {
    service.child.kill('SIGTERM');
    await service.exited;
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates a key (printed once), lists it without the key, and revokes it: refused on the running service', async () => {
    const created = await keys('create', '--name', 'shell test', '--expires-in-days', '7');
    const key = created.stdout.trim();
    expect(key).toMatch(/^pk_[A-Za-z0-9_-]{43}$/);
    expect(created.stderr).toMatch(/Key \d+ "shell test" created/);
    expect((await list(key)).status).toBe(200);
    expect((await list(TEST_KEY)).status).toBe(200);

    const listed = await keys('list', '--json');
    const [record] = JSON.parse(listed.stdout) as Array<{ id: number; name: string; shownPart: string; lastUsedAt: number | null }>;
    expect(record).toMatchObject({ name: 'shell test', shownPart: key.slice(0, 12) });
    expect(listed.stdout).not.toContain(key);
    expect((await keys('list')).stdout).not.toContain(key);

    const revoked = await keys('revoke', String(record.id));
    expect(revoked.stderr).toMatch(/revoked/);
    // Refused within 2 s (docs/api.md): judged by when each request was sent, which a slow answer does not move.
    const revokedAt = Date.now();
    for (let sentAt = Date.now(); (await list(key)).status === 200; sentAt = Date.now()) {
      // Generous: the 2 s promise is KEY_CACHE_MS, pinned on an injected clock by api-keys.service.spec.ts.
      expect(sentAt - revokedAt).toBeLessThan(30_000);
      await sleep(100);
    }
    expect((await list(key)).status).toBe(401);
    expect((await list(TEST_KEY)).status).toBe(200);
    expect(service.stdout()).not.toContain(key);
  });

  it('exits 1 naming the problem when no key matches', async () => {
    await expect(keys('revoke', 'pk_nothing')).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('No key matches') });
    await expect(keys('rotate', 'pk_nothing')).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('No key matches') });
  });

  describe('a read-only key (--scopes pets:read)', () => {
    let key: string;
    const create = (with_: string) =>
      fetch(`${service.origin}/v1/pets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${with_}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
      });

    beforeAll(async () => {
      key = (await keys('create', '--name', 'storefront', '--scopes', 'pets:read')).stdout.trim();
    });

    it('lists and reads pets, and is refused a create: 403 insufficient_scope with the RFC 6750 challenge', async () => {
      const { id } = (await (await create(TEST_KEY)).json()) as { id: number };
      expect((await list(key)).status).toBe(200);
      expect((await fetch(`${service.origin}/v1/pets/${id}`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
      const refused = await create(key);
      expect(refused.status).toBe(403);
      expect(refused.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="pets:write"');
      expect(await refused.json()).toMatchObject({ code: 'insufficient_scope', status: 403 });
      const [record] = (JSON.parse((await keys('list', '--json')).stdout) as Array<{ name: string; scopes: string[] }>).filter(
        ({ name }) => name === 'storefront',
      );
      expect(record.scopes).toEqual(['pets:read']);
    });

    it('makes the client throw ForbiddenError and the petstore CLI exit 1 with the message', async () => {
      const client = new PetstoreClient({ baseUrl: `${service.origin}/v1`, apiKey: key, maxRetries: 0 });
      const error = await client.createPet({ name: 'Rex', categoryId: 1 }).catch((reason: unknown) => reason);
      expect(error).toBeInstanceOf(ForbiddenError);
      expect(error).toMatchObject({ status: 403, code: 'insufficient_scope' });
      const cli = promisify(execFile)(process.execPath, [BUILT_CLI, 'pets', 'add', '--name', 'Rex', '--category', '1'], {
        env: { PATH: process.env.PATH ?? '', PETSTORE_URL: `${service.origin}/v1`, PETSTORE_API_KEY: key },
      });
      await expect(cli).rejects.toMatchObject({ code: 1, stderr: expect.stringMatching(/pets:write.*insufficient_scope, HTTP 403/) });
    });
  });

  it.each([
    [['--scopes', 'pets:admin'], 'unknown scope "pets:admin"'],
    [['--scopes', ''], 'an empty scope'],
    [['--scopes', 'pets:read,pets:read'], 'scope "pets:read" is named twice'],
  ])('refuses create %j as a usage error (exit 2) naming the scope', async (args, message) => {
    await expect(keys('create', '--name', 'bad', ...args)).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining(message) });
  });

  it('refuses a name over 100 characters as a usage error (exit 2) naming the limit, and stores nothing', async () => {
    const before = (await keys('list', '--json')).stdout;
    await expect(keys('create', '--name', 'n'.repeat(101))).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('1 to 100 characters, not 101') });
    await expect(keys('create', '--name', '')).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('1 to 100 characters, not 0') });
    expect((await keys('list', '--json')).stdout).toBe(before);
  });

  it('keeps a name of 100 characters whole, counted in characters rather than bytes', async () => {
    const name = `${'é'.repeat(98)}🐕.`;
    await keys('create', '--name', name);
    const names = (JSON.parse((await keys('list', '--json')).stdout) as Array<{ name: string }>).map((record) => record.name);
    expect(names).toContain(name);
  });

  it('keeps the old key working for 24 hours after a rotation by default', async () => {
    await keys('create', '--name', 'default grace');
    const [{ id }] = (JSON.parse((await keys('list', '--json')).stdout) as Array<{ id: number; name: string }>).filter(
      ({ name }) => name === 'default grace',
    );
    const before = Date.now();
    await keys('rotate', String(id));
    const after = Date.now();
    const [old] = (JSON.parse((await keys('list', '--json')).stdout) as Array<{ id: number; expiresAt: number | null }>).filter((r) => r.id === id);
    const DAY_MS = 24 * 60 * 60 * 1000;
    expect(old.expiresAt).toBeGreaterThanOrEqual(before + DAY_MS);
    expect(old.expiresAt).toBeLessThanOrEqual(after + DAY_MS);
  });

  it('rotates a key: a new one printed once, both work during the grace period, then only the new one', async () => {
    const old = (await keys('create', '--name', 'back office', '--scopes', 'pets:write')).stdout.trim();
    const [{ id }] = (JSON.parse((await keys('list', '--json')).stdout) as Array<{ id: number; name: string }>).filter(
      ({ name }) => name === 'back office',
    );
    // 0.003 h = 10.8 s. The old key is judged by when its answer came: before its expiry it must be accepted.
    const rotated = await keys('rotate', String(id), '--grace-hours', '0.003');
    const replacement = rotated.stdout.trim();
    const oldAnswer = await list(old);
    const oldAnsweredAt = Date.now();
    expect((await list(replacement)).status).not.toBe(401);
    expect(replacement).toMatch(/^pk_[A-Za-z0-9_-]{43}$/);
    expect(rotated.stderr).toMatch(new RegExp(`"back office" replaces key ${id}, scopes pets:write`));
    const listed = JSON.parse((await keys('list', '--json')).stdout) as Array<{ id: number; replacesId: number | null; replacedById: number | null; expiresAt: number | null; scopes: string[] }>;
    const [before, after] = [listed.find((r) => r.id === id), listed.find((r) => r.replacesId === id)];
    expect(after).toMatchObject({ scopes: ['pets:write'], expiresAt: null });
    expect(before?.replacedById).toBe(after?.id);
    expect((await keys('list')).stdout).toMatch(new RegExp(`\n${after?.id}\t.*\t${id}\t-\n`));

    const expiresAt = before?.expiresAt as number;
    if (oldAnsweredAt < expiresAt) expect(oldAnswer.status).not.toBe(401);
    // Refused once expired, on the running service; within 2 s is KEY_CACHE_MS's promise, pinned by its unit test.
    for (let sentAt = Date.now(); (await list(old)).status !== 401; sentAt = Date.now()) {
      expect(sentAt - expiresAt).toBeLessThan(30_000);
      await sleep(100);
    }
    expect(Date.now()).toBeGreaterThanOrEqual(expiresAt);
    // The write-only key is refused listPets for its scope (403), never for being unknown.
    expect((await list(replacement)).status).toBe(403);
    expect(service.stdout()).not.toContain(replacement);
  });
});
