import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, type NodeProcess, NPM_ENV, registerWebhookEndpoint, spawnNode, spawnService, stopNode, waitUntilReady } from '@petstore/testing';
import { run, STRICT_FLAGS, TSC } from './support/consumer-project';
import { markdownSnippets, READ_DOCUMENTS } from './support/markdown-snippets';

const WORKSPACE = join(__dirname, '../../..');
const CLIENT_DIST = join(WORKSPACE, 'dist/libs/client');
const WEBHOOK_SECRET = `whsec_${Buffer.from('doc snippets test secret, 32 bytes').toString('base64')}`;

jest.setTimeout(180_000);

/** Runs a program to its end within a generous deadline; its exit code and output. */
function runToEnd(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env: { PATH: process.env.PATH, ...env }, timeout: 120_000 });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => resolve({ code, output }));
  });
}

// Every TypeScript and JavaScript snippet of the README and docs/ is compiled as a user would (tsc --strict, the
// packed client installed from its tarball) and run against the service, and the README's first requests are run in a
// shell: a snippet a newcomer copies must work as written.
describe('the code in the README and docs/', () => {
  let dir: string;
  let service: NodeProcess;
  let key: string;
  const env = () => ({ PETSTORE_URL: `${service.origin}/v1`, PETSTORE_API_KEY: key });

  beforeAll(async () => {
    if (!existsSync(join(CLIENT_DIST, 'package.json'))) throw new Error(`${CLIENT_DIST} is missing: run "npx nx build client" first`);
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'petstore-snippets-')));
    // The README's own key, so that its shell snippet runs as written.
    key = /API_KEYS=(\S+) npm start/.exec(readFileSync(join(WORKSPACE, 'README.md'), 'utf8'))?.[1] ?? '';
    expect(key).toMatch(/^pk_/);
    service = await spawnService({
      env: {
        API_KEYS: key,
        DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`,
        WEBHOOK_ALLOW_INSECURE: 'true',
        WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
        WEBHOOK_RETRY_SCHEDULE: '1',
      },
    });
    await waitUntilReady(service);
    const packed = JSON.parse(await run('npm', ['pack', CLIENT_DIST, '--pack-destination', dir, '--json'], { cwd: dir, env: NPM_ENV })) as Array<{ filename: string }>;
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'snippets', private: true, type: 'module' }));
    await run('npm', ['install', '--no-audit', '--no-fund', join(dir, packed[0].filename)], { cwd: dir, env: NPM_ENV, timeoutMs: 120_000 });
    // What a TypeScript user on Node has beside the client, and the package the README's receiver names.
    mkdirSync(join(dir, 'node_modules/@types'), { recursive: true });
    symlinkSync(join(WORKSPACE, 'node_modules/@types/node'), join(dir, 'node_modules/@types/node'));
    symlinkSync(join(WORKSPACE, 'node_modules/standardwebhooks'), join(dir, 'node_modules/standardwebhooks'));
  });

  afterAll(async () => {
    if (service) await stopNode(service);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const typescript = markdownSnippets(READ_DOCUMENTS, ['ts', 'typescript']);

  it('finds the snippets it checks', () => {
    expect(typescript.map(({ where }) => where.split(':')[0])).toEqual(expect.arrayContaining(['README.md', 'docs/api.md', 'libs/client/README.md']));
  });

  it.each(typescript.map((snippet) => [snippet.where, snippet]))('%s compiles with tsc --strict and runs against the service', async (_where, { code }) => {
    const name = `snippet-${typescript.findIndex((snippet) => snippet.code === code)}`;
    writeFileSync(join(dir, `${name}.ts`), code);
    await run(process.execPath, [TSC, ...STRICT_FLAGS, '--types', 'node', '--skipLibCheck', '--outDir', 'out', `${name}.ts`], { cwd: dir });
    const ran = await runToEnd(process.execPath, [join('out', `${name}.js`)], dir, env());
    expect(ran).toMatchObject({ code: 0 });
  });

  it("runs the README's first requests in a shell, on the port the service really has", async () => {
    const [firstRequests] = markdownSnippets([join(WORKSPACE, 'README.md')], ['sh']).filter(({ code }) => code.includes('curl') && code.includes('KEY='));
    const script = firstRequests.code.replaceAll('http://localhost:3000', `http://localhost:${new URL(service.origin).port}`);
    const ran = await runToEnd('bash', ['-euo', 'pipefail', '-c', script], dir, {});
    expect(ran.code).toBe(0);
    expect(ran.output).toMatch(/^HTTP\/1\.1 201 /m);
    expect(ran.output).toMatch(/^HTTP\/1\.1 200 /m);
  });

  it("runs the README's webhook receiver, which verifies and acknowledges what the service sends", async () => {
    const [receiver] = markdownSnippets([join(WORKSPACE, 'README.md')], ['js']).filter(({ code }) => code.includes('standardwebhooks'));
    writeFileSync(join(dir, 'receiver.mjs'), receiver.code);
    const port = await freePort();
    const running = await spawnNode('receiver', join(dir, 'receiver.mjs'), { env: { PORT: String(port), WEBHOOK_SECRET } });
    try {
      await registerWebhookEndpoint(`sqlite:${join(dir, 'db.sqlite')}`, `http://127.0.0.1:${port}/`, WEBHOOK_SECRET);
      const created = await fetch(`${service.origin}/v1/pets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Hooked', categoryId: 1 }),
      });
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: number };
      // It prints "<webhook-id> pet.created <id>" for each event it accepted.
      const deadline = Date.now() + 60_000;
      while (!new RegExp(`pet\\.created ${id}$`, 'm').test(running.stdout()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
      expect(running.stdout()).toMatch(new RegExp(`^\\S+ pet\\.created ${id}$`, 'm'));
    } finally {
      await stopNode(running);
    }
  });
});
