import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type NodeProcess, spawnService, waitUntilLive } from '@petstore/testing';
import { TEST_KEY } from './support/test-key';

const WORKSPACE = join(__dirname, '../../..');

// `npm run keys -- …` from a shell, against the database a running service uses.
describe('key administration (npm run keys)', () => {
  jest.setTimeout(60_000);
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

  it('creates a key (printed once), lists it without the key, and revokes it: refused within 5 s', async () => {
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
    const started = Date.now();
    while ((await list(key)).status === 200) {
      expect(Date.now() - started).toBeLessThan(5_000);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await list(key)).status).toBe(401);
    expect((await list(TEST_KEY)).status).toBe(200);
    expect(service.stdout()).not.toContain(key);
  });

  it('exits 1 naming the problem when no key matches', async () => {
    await expect(keys('revoke', 'pk_nothing')).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('No key matches') });
  });
});
