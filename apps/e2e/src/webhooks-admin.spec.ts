import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';

const WORKSPACE = join(__dirname, '../../..');
const INSECURE = { WEBHOOK_ALLOW_INSECURE: 'true' };
const PRIVATE = { WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' };

interface Listed {
  id: number;
  url: string;
  events: string[];
  createdAt: number;
}

// `npm run webhooks -- …` from a shell, on a database no service has run on: the command migrates it. Only loopback
// URLs: nothing here needs a resolver or the network.
describe('webhook administration (npm run webhooks)', () => {
  let dir: string;
  // --ignore-scripts skips prewebhooks's build (done before this suite): the command runs dist/apps/api/webhooks.js.
  const webhooks = (env: Record<string, string>, ...args: string[]) =>
    promisify(execFile)('npm', ['run', '--ignore-scripts', '--silent', 'webhooks', '--', ...args], {
      cwd: WORKSPACE,
      env: { PATH: process.env.PATH ?? '', DATABASE_URL: `sqlite:${database()}`, ...env },
    });
  const database = () => join(dir, 'petstore.sqlite');
  const list = async () => JSON.parse((await webhooks({}, 'list', '--json')).stdout) as Listed[];

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'petstore-webhooks-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('adds an endpoint and prints {id, secret} once with --json: a whsec_ secret of at least 24 bytes', async () => {
    const added = await webhooks({ ...INSECURE, ...PRIVATE }, 'add', '--url', 'http://127.0.0.1:9/hooks', '--json');
    const printed = JSON.parse(added.stdout) as { id: number; secret: string };
    expect(Object.keys(printed).sort()).toEqual(['id', 'secret']);
    expect(printed.id).toEqual(expect.any(Number));
    expect(printed.secret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
    expect(Buffer.from(printed.secret.slice('whsec_'.length), 'base64').length).toBeGreaterThanOrEqual(24);
    expect(added.stderr).toContain(`Endpoint ${printed.id} http://127.0.0.1:9/hooks added for pet.created`);
    expect(added.stderr).not.toContain(printed.secret);
    expect(await list()).toContainEqual({ id: printed.id, url: 'http://127.0.0.1:9/hooks', events: ['pet.created'], createdAt: expect.any(Number) });
  });

  it('prints the secret alone on stdout without --json, for a script to capture', async () => {
    const added = await webhooks({ ...INSECURE, ...PRIVATE }, 'add', '--url', 'http://localhost:9/plain', '--events', 'pet.created');
    expect(added.stdout).toMatch(/^whsec_[A-Za-z0-9+/]{43}=\n$/);
    expect(added.stderr).toMatch(/^Endpoint \d+ http:\/\/localhost:9\/plain added for pet.created/);
  });

  it('refuses http:// without WEBHOOK_ALLOW_INSECURE=true: exit 2, naming the variable, nothing stored', async () => {
    await expect(webhooks(PRIVATE, 'add', '--url', 'http://127.0.0.1:9/insecure')).rejects.toMatchObject({
      code: 2,
      stdout: '',
      stderr: expect.stringContaining('must use https; set WEBHOOK_ALLOW_INSECURE=true'),
    });
    expect((await list()).map(({ url }) => url)).not.toContain('http://127.0.0.1:9/insecure');
  });

  it.each([
    ['http://127.0.0.1:9/loopback', INSECURE, 'webhook address 127.0.0.1 is a loopback'],
    ['https://localhost:9/named', {}, 'webhook host "localhost" resolves to'],
    ['https://[::1]:9/v6', {}, 'webhook address ::1 is a loopback'],
  ])('refuses %s without WEBHOOK_ALLOW_PRIVATE_ADDRESSES=true: exit 2, naming the address and the variable', async (url, env, message) => {
    const refused = webhooks(env, 'add', '--url', url);
    await expect(refused).rejects.toMatchObject({ code: 2, stdout: '', stderr: expect.stringContaining(message) });
    await expect(refused).rejects.toMatchObject({ stderr: expect.stringContaining('set WEBHOOK_ALLOW_PRIVATE_ADDRESSES=true') });
  });

  it('refuses a URL with a password as a usage error, without repeating it', async () => {
    const refused = webhooks({ ...INSECURE, ...PRIVATE }, 'add', '--url', 'http://hooks:s3cret-pa55@127.0.0.1:9/');
    await expect(refused).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('must not contain a user name or password') });
    await expect(refused).rejects.toMatchObject({ stderr: expect.not.stringContaining('s3cret-pa55') });
  });

  it.each([
    ['pet.deleted', 'unknown event type "pet.deleted"'],
    ['', 'an empty event type'],
    ['pet.created,pet.created', 'event type "pet.created" is named twice'],
  ])('refuses --events %j as a usage error (exit 2) naming the problem', async (events, message) => {
    await expect(webhooks({ ...INSECURE, ...PRIVATE }, 'add', '--url', 'http://127.0.0.1:9/', '--events', events)).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining(message),
    });
  });

  it('lists endpoints with id, URL, events and creation time, never a secret', async () => {
    const { stdout } = await webhooks({ ...INSECURE, ...PRIVATE }, 'add', '--url', 'http://127.0.0.1:9/listed', '--json');
    const { id, secret } = JSON.parse(stdout) as { id: number; secret: string };
    const json = await webhooks({}, 'list', '--json');
    expect(json.stdout).not.toContain(secret);
    expect(json.stdout).not.toContain('whsec_');
    expect(JSON.parse(json.stdout)).toContainEqual({ id, url: 'http://127.0.0.1:9/listed', events: ['pet.created'], createdAt: expect.any(Number) });
    const text = await webhooks({}, 'list');
    expect(text.stdout).not.toContain('whsec_');
    expect(text.stdout).toMatch(/^ID\tURL\tEVENTS\tCREATED\n/);
    expect(text.stdout).toMatch(new RegExp(`\n${id}\thttp://127.0.0.1:9/listed\tpet.created\t\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ\n`));
  });

  it("shows an endpoint's attempts newest first, each message by its webhook-id, as text or JSON, at most --limit", async () => {
    const { stdout } = await webhooks({ ...INSECURE, ...PRIVATE }, 'add', '--url', 'http://127.0.0.1:9/attempted', '--json');
    const { id } = JSON.parse(stdout) as { id: number };
    // What the deliveries write; the outbox itself is not needed for the log.
    const db = new Database(database());
    let tag: string;
    try {
      ({ message_tag: tag } = db.prepare('SELECT message_tag FROM webhook_endpoints WHERE id = ?').get(id) as { message_tag: string });
      const insert = db.prepare(
        'INSERT INTO webhook_attempts (endpoint_id, message_id, attempt, attempted_at, outcome, status_code, error, duration_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      );
      insert.run(id, 41, 1, Date.UTC(2030, 0, 1, 12, 0, 0), 'retrying', null, 'timeout after 10000 ms', 10_002);
      insert.run(id, 41, 2, Date.UTC(2030, 0, 1, 12, 0, 5), 'delivered', 204, null, 31);
      insert.run(id + 1_000, 42, 1, Date.UTC(2030, 0, 1, 12, 0, 6), 'failed', 500, 'HTTP 500', 5);
    } finally {
      db.close();
    }

    expect((await webhooks({}, 'deliveries', String(id))).stdout).toBe(
      'ATTEMPTED\tMESSAGE\tATTEMPT\tOUTCOME\tSTATUS\tERROR\tDURATION\n' +
        `2030-01-01T12:00:05Z\tmsg_${tag}_41\t2\tdelivered\t204\t-\t31 ms\n` +
        `2030-01-01T12:00:00Z\tmsg_${tag}_41\t1\tretrying\t-\ttimeout after 10000 ms\t10002 ms\n`,
    );
    expect(JSON.parse((await webhooks({}, 'deliveries', String(id), '--json', '--limit', '1')).stdout)).toEqual([
      { attemptedAt: Date.UTC(2030, 0, 1, 12, 0, 5), messageId: `msg_${tag}_41`, attempt: 2, outcome: 'delivered', statusCode: 204, error: null, durationMs: 31 },
    ]);
  });

  it('shows no deliveries for a new endpoint, removes it, then says there is no such endpoint (exit 1)', async () => {
    const { stdout } = await webhooks({ ...INSECURE, ...PRIVATE }, 'add', '--url', 'http://127.0.0.1:9/removed', '--json');
    const { id } = JSON.parse(stdout) as { id: number };
    expect(JSON.parse((await webhooks({}, 'deliveries', String(id), '--json')).stdout)).toEqual([]);
    expect((await webhooks({}, 'deliveries', String(id), '--limit', '5')).stdout).toBe('ATTEMPTED\tMESSAGE\tATTEMPT\tOUTCOME\tSTATUS\tERROR\tDURATION\n');

    const removed = await webhooks({}, 'remove', String(id));
    expect(removed.stderr).toMatch(new RegExp(`Endpoint ${id} .* removed, with its pending messages`));
    expect((await list()).map((endpoint) => endpoint.id)).not.toContain(id);
    const none = { code: 1, stderr: expect.stringContaining(`No endpoint has id ${id}`) };
    await expect(webhooks({}, 'remove', String(id))).rejects.toMatchObject(none);
    await expect(webhooks({}, 'deliveries', String(id))).rejects.toMatchObject(none);
  });

  it.each([
    [['remove', 'abc'], 'must be an endpoint id'],
    [['deliveries', '1', '--limit', '0'], 'must be a whole number from 1 to 1000'],
    [['add'], "required option '--url <url>' not specified"],
  ])('refuses %j as a usage error (exit 2)', async (args, message) => {
    await expect(webhooks({}, ...args)).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining(message) });
  });

  it('lists in its help the exit codes and the WEBHOOK_* variables it reads', async () => {
    const { stdout } = await webhooks({}, '--help');
    expect(stdout).toContain('Exit codes: 0 done, 1 nothing done');
    expect(stdout).toContain('WEBHOOK_ALLOW_INSECURE');
    expect(stdout).toContain('WEBHOOK_ALLOW_PRIVATE_ADDRESSES');
  });
});
