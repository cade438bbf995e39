import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { authorizeInSwaggerUi, chromiumRuns, freePort, launchChromium, type NodeProcess, spawnService, stopNode, waitUntilReady } from '@petstore/testing';

// A newcomer's first minutes, as the README tells them: the built service started on a port of their own with nothing
// configured (no PUBLIC_BASE_URL, no API_KEYS, every interface), its output read for the key and the addresses, then
// Swagger UI in Chromium at `localhost` and at `127.0.0.1`, and the `next` links followed as given.
jest.setTimeout(120_000);

const CLI = join(__dirname, '../../../dist/apps/cli/main.js');

(chromiumRuns('the first-ten-minutes browser test') ? describe : describe.skip)('a newcomer’s first ten minutes', () => {
  let dir: string;
  let service: NodeProcess;
  let port: number;
  let developmentKey: string;
  let browser: Browser;

  beforeAll(async () => {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run "npx nx build cli" first`);
    dir = mkdtempSync(join(tmpdir(), 'petstore-first-minutes-'));
    port = await freePort();
    service = await spawnService({
      // Blank values count as unset: the service's own defaults, as `npm start` gives them, on another port.
      env: { PORT: String(port), HOST: '', PUBLIC_BASE_URL: '', API_KEYS: '', METRICS_PORT: '0', DATABASE_URL: `sqlite:${join(dir, 'petstore.sqlite')}` },
    });
    await waitUntilReady(service);
    developmentKey = /^\s+(pk_dev_\S+)$/m.exec(service.stderr())?.[1] ?? '';
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    if (service) await stopNode(service);
    rmSync(dir, { recursive: true, force: true });
  });

  it('prints the development key once, and one line saying where the API, Swagger UI and the storefront answer', async () => {
    expect(developmentKey).toMatch(/^pk_dev_/);
    // Log lines reach a pipe in batches, at least once a second: wait for the line rather than for a time.
    const deadline = Date.now() + 30_000;
    while (!service.stdout().includes('"addresses"') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    const lines = service.stdout().split('\n').filter(Boolean).map((line) => JSON.parse(line) as { msg: string; addresses?: Record<string, string> });
    const announced = lines.filter((line) => line.addresses);
    expect(announced).toEqual([
      expect.objectContaining({
        msg: `Serving the API at http://localhost:${port}/v1, Swagger UI at http://localhost:${port}/docs and the storefront at http://localhost:${port}/storefront/`,
        addresses: { api: `http://localhost:${port}/v1`, docs: `http://localhost:${port}/docs`, storefront: `http://localhost:${port}/storefront/` },
      }),
    ]);
    // Nest's narration of its modules and routes stays below info: start-up is a handful of lines, not thirty. (Counted
    // by what they are: Fastify's "Server listening at" lines are one per network interface, which varies by machine.)
    const narration = new Set(['NestFactory', 'InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestApplication']);
    expect(lines.filter((line) => narration.has(String((line as { context?: unknown }).context)))).toEqual([]);
    expect(lines.filter((line) => !line.msg.startsWith('Server listening at')).length).toBeLessThanOrEqual(3);
    for (const address of Object.values(announced[0].addresses ?? {})) {
      const answer = await fetch(address.endsWith('/v1') ? `${address}/pets` : address, { headers: { authorization: `Bearer ${developmentKey}` } });
      expect({ address, status: answer.status }).toEqual({ address, status: 200 });
    }
  });

  it('gives next links that work as given, on the port it listens on', async () => {
    const headers = { authorization: `Bearer ${developmentKey}`, 'content-type': 'application/json' };
    for (const name of ['Link one', 'Link two']) {
      expect((await fetch(`${service.origin}/v1/pets`, { method: 'POST', headers, body: JSON.stringify({ name, categoryId: 1 }) })).status).toBe(201);
    }
    const first = await fetch(`http://localhost:${port}/v1/pets?limit=1`, { headers });
    const next = /^<([^>]+)>; rel="next"$/.exec(first.headers.get('link') ?? '')?.[1];
    expect(next).toMatch(new RegExp(`^http://localhost:${port}/v1/pets\\?`));
    const second = await fetch(next ?? '', { headers });
    expect(second.status).toBe(200);
  });

  describe('the petstore CLI, as docs/api.md runs it', () => {
    const petstore = (args: string[], env: Record<string, string>) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH ?? '', PETSTORE_URL: `http://localhost:${port}/v1`, ...env } });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk) => (stdout += chunk));
        child.stderr.on('data', (chunk) => (stderr += chunk));
        child.on('close', (code) => resolve({ code, stdout, stderr }));
      });

    it('adds and lists a pet with the printed key', async () => {
      const added = await petstore(['pets', 'add', '--name', 'Cli Rex', '--category', '2'], { PETSTORE_API_KEY: developmentKey });
      expect(added).toMatchObject({ code: 0, stdout: expect.stringContaining('Cli Rex') });
      const listed = await petstore(['pets', 'list', '--all'], { PETSTORE_API_KEY: developmentKey });
      expect(listed).toMatchObject({ code: 0, stdout: expect.stringContaining('Cli Rex') });
    });

    it.each([
      [['pets', 'list', '--limit', '101'], { PETSTORE_API_KEY: 'pk_dev_unused_0123456789' }, 2, /--limit must be a whole number from 1 to 100 \(got 101\)\nRun 'petstore pets list --help' for usage\./],
      [['pets', 'add', '--name', ' ', '--category', '1'], { PETSTORE_API_KEY: 'pk_dev_unused_0123456789' }, 2, /--name must not be empty or only whitespace/],
      [['pets', 'list'], {}, 2, /set PETSTORE_API_KEY/],
      [['pets', 'list'], { PETSTORE_API_KEY: 'pk_wrong_0123456789abcdef' }, 1, /refused the API key in PETSTORE_API_KEY/],
    ])('refuses %j in words that say what to do', async (args, env, code, words) => {
      const run = await petstore(args, env as Record<string, string>);
      expect(run.code).toBe(code);
      expect(run.stderr).toMatch(words);
      expect(run.stdout).toBe('');
    });
  });

  it('opens the storefront the start-up line names: a wrong key is refused alone, the printed key connects and lists', async () => {
    const headers = { authorization: `Bearer ${developmentKey}`, 'content-type': 'application/json' };
    expect((await fetch(`${service.origin}/v1/pets`, { method: 'POST', headers, body: JSON.stringify({ name: 'Storefront Rex', categoryId: 1 }) })).status).toBe(201);
    const page = await (await browser.newContext({ viewport: { width: 320, height: 800 } })).newPage();
    try {
      page.setDefaultTimeout(30_000);
      await page.goto(`http://localhost:${port}/storefront/`);
      // It talks to the service that served it: there is no address to type.
      expect(await page.getByLabel('API address').count()).toBe(0);
      await page.getByLabel('API key').fill('pk_wrong_key_0123456789');
      await page.getByRole('button', { name: 'Connect', exact: true }).click();
      await page.getByRole('alert').filter({ hasText: /\S/ }).first().waitFor();
      expect(await page.getByText(/Connected/).count()).toBe(0);
      expect(await page.getByRole('alert').filter({ hasText: /\S/ }).allTextContents()).toEqual([expect.stringMatching(/^The API key was refused\./)]);

      await page.getByLabel('API key').fill(developmentKey);
      await page.getByRole('button', { name: 'Connect', exact: true }).click();
      await page.getByText(`Connected to http://localhost:${port}/v1.`, { exact: false }).waitFor();
      await page.getByRole('cell', { name: 'Storefront Rex' }).waitFor();
      expect(await page.getByRole('button', { name: 'Add pet' }).count()).toBe(1);
    } finally {
      await page.context().close();
    }
  });

  it('answers its own address with the way to the API, Swagger UI and the storefront', async () => {
    const page = await (await browser.newContext()).newPage();
    try {
      page.setDefaultTimeout(30_000);
      await page.goto(`http://localhost:${port}/`);
      await page.getByRole('link', { name: 'Swagger UI' }).click();
      await page.locator('.opblock').first().waitFor();
      expect(page.url()).toBe(`http://localhost:${port}/docs`);
      await page.goBack();
      await page.getByRole('link', { name: 'The storefront' }).click();
      await page.getByLabel('API key').waitFor();
    } finally {
      await page.context().close();
    }
  });

  describe.each(['localhost', '127.0.0.1'])('Swagger UI opened at http://%s on its port', (host) => {
    let page: Page;
    const operation = (operationId: string) => page.locator(`#operations-pets-${operationId}`);

    /** Presses "Execute" on an expanded operation in "Try it out" mode; the live answer's status and body. */
    async function execute(operationId: string): Promise<{ status: string; body: string; url: string }> {
      const block = operation(operationId);
      const [response] = await Promise.all([page.waitForResponse((r) => new URL(r.url()).pathname === '/v1/pets'), block.locator('.btn.execute').click()]);
      const row = block.locator('.responses-table.live-responses-table .response').first();
      await row.waitFor();
      return { status: (await row.locator('.response-col_status').innerText()).trim(), body: await row.locator('.response-col_description').innerText(), url: response.url() };
    }

    beforeAll(async () => {
      page = await (await browser.newContext()).newPage();
      page.setDefaultTimeout(30_000);
      await page.goto(`http://${host}:${port}/docs`);
      await page.locator('.opblock').first().waitFor();
    });
    afterAll(() => page?.context().close());

    it('offers this server first, labelled as such', async () => {
      const servers = page.locator('.servers select');
      expect(await servers.inputValue()).toBe('/v1');
      expect(await servers.locator('option').first().innerText()).toMatch(/This server/);
    });

    it('authorizes with the key, adds two different pets (two 201s, no shared Idempotency-Key) and lists them', async () => {
      await authorizeInSwaggerUi(page, developmentKey);

      const create = operation('createPet');
      await create.locator('.opblock-summary-control').click();
      await create.locator('.try-out__btn').click();
      expect(await create.locator('tr[data-param-name="Idempotency-Key"] input').inputValue()).toBe('');
      const created: string[] = [];
      for (const name of [`Swagger ${host} one`, `Swagger ${host} two`]) {
        await create.locator('textarea.body-param__text').fill(JSON.stringify({ name, categoryId: 3 }));
        const answer = await execute('createPet');
        expect({ name, status: answer.status }).toEqual({ name, status: '201' });
        expect(new URL(answer.url).origin).toBe(`http://${host}:${port}`);
        created.push(name);
      }

      const list = operation('listPets');
      await list.locator('.opblock-summary-control').click();
      await list.locator('.try-out__btn').click();
      await list.locator('tr[data-param-name="limit"] input').fill('100');
      const listed = await execute('listPets');
      expect(listed.status).toBe('200');
      for (const name of created) expect(listed.body).toContain(name);
    });
  });

  // Last: it restarts the service.
  it('keeps the development key beside the data: a restart on the same folder prints and accepts the same key', async () => {
    expect(readFileSync(join(dir, 'development-key'), 'utf8')).toBe(`${developmentKey}\n`);
    await stopNode(service);
    service = await spawnService({
      env: { PORT: String(port), HOST: '', PUBLIC_BASE_URL: '', API_KEYS: '', METRICS_PORT: '0', DATABASE_URL: `sqlite:${join(dir, 'petstore.sqlite')}` },
    });
    await waitUntilReady(service);

    expect(/^\s+(pk_dev_\S+)$/m.exec(service.stderr())?.[1]).toBe(developmentKey);
    expect(service.stderr()).toContain(`It is kept in ${join(dir, 'development-key')}, so the next start with this data accepts it too`);
    expect((await fetch(`${service.origin}/v1/pets`, { headers: { authorization: `Bearer ${developmentKey}` } })).status).toBe(200);
  });
});
