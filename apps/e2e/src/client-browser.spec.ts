import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page, Route } from 'playwright-core';
import { type NodeProcess, spawnService, waitUntilLive } from '@petstore/testing';
import { chromiumRuns, launchChromium } from '@petstore/testing';
import { TEST_KEY } from './support/test-key';

const BUILT_ESM = join(__dirname, '../../../dist/libs/client/index.js');
// One made-up origin for the page, the module and the API: the service sends no CORS headers, so all must be same-origin.
const ORIGIN = 'http://petstore.test';

// Hop-by-hop headers belong to one connection, and fetch has already decoded the body that content-encoding describes.
const NOT_FORWARDED = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'content-length', 'content-encoding']);
const forwardable = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !NOT_FORWARDED.has(name.toLowerCase())));

// The built ESM file as a browser loads it: only the module, fetch and standard JavaScript.
const PAGE = `<!doctype html>
<meta charset="utf-8">
<title>petstore client</title>
<script type="module">
  import { NotFoundError, PetStatus, PetstoreApiError, PetstoreClient } from '/client.js';
  const warnings = [];
  try {
    const client = new PetstoreClient({
      baseUrl: '${ORIGIN}/v1',
      apiKey: '${TEST_KEY}',
      logger: { warn: (message) => warnings.push(message) },
    });
    const created = await client.createPet({ name: 'Browser Rex', categoryId: 9, status: PetStatus.Pending });
    const listed = await client.listPets({ status: PetStatus.Pending, limit: 10 });
    let notFound;
    try {
      await client.getPet(987654321);
    } catch (error) {
      notFound = { name: error.name, isNotFound: error instanceof NotFoundError, isApiError: error instanceof PetstoreApiError, status: error.status, code: error.code };
    }
    window.result = { created, listed, notFound, warnings };
  } catch (error) {
    window.result = { failed: String(error) };
  }
</script>
`;

(chromiumRuns('the client browser test') ? describe : describe.skip)('the built @petstore/client in Chromium', () => {
  let dir: string;
  let service: NodeProcess;
  let browser: Browser;
  let page: Page;
  const proxied: { method: string; path: string; authorization?: string }[] = [];
  const pageErrors: string[] = [];

  async function serve(route: Route): Promise<void> {
    const request = route.request();
    const url = new URL(request.url());
    if (url.pathname === '/') return route.fulfill({ contentType: 'text/html', body: PAGE });
    if (url.pathname === '/client.js') return route.fulfill({ contentType: 'text/javascript', body: readFileSync(BUILT_ESM) });
    if (!url.pathname.startsWith('/v1/')) return route.fulfill({ status: 404 });
    const headers = await request.allHeaders();
    proxied.push({ method: request.method(), path: url.pathname + url.search, authorization: headers.authorization });
    const body = request.postDataBuffer();
    const response = await fetch(`${service.origin}${url.pathname}${url.search}`, {
      method: request.method(),
      headers: forwardable(headers),
      // A copy over a plain ArrayBuffer: the DOM typings refuse a Buffer, which may sit on shared memory.
      body: body ? Uint8Array.from(body) : undefined,
    });
    return route.fulfill({
      status: response.status,
      headers: forwardable(Object.fromEntries(response.headers)),
      body: Buffer.from(await response.arrayBuffer()),
    });
  }

  beforeAll(async () => {
    if (!existsSync(BUILT_ESM)) throw new Error(`${BUILT_ESM} is missing: run "CI=true NX_DAEMON=false npx nx build client" first`);
    dir = mkdtempSync(join(tmpdir(), 'petstore-browser-'));
    service = await spawnService({ env: { API_KEYS: TEST_KEY, DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}` } });
    await waitUntilLive(service);
    browser = await launchChromium();
    page = await (await browser.newContext()).newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.route(`${ORIGIN}/**`, serve);
  });

  afterAll(async () => {
    await browser?.close();
    if (service && service.child.exitCode === null) {
      service.child.kill('SIGTERM');
      await service.exited;
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('creates, lists and reports a missing pet through the service', async () => {
    await page.goto(`${ORIGIN}/`);
    const ready = page.waitForFunction(() => 'result' in window, undefined, { timeout: 20_000 });
    // A module that fails to load (e.g. a Node-only import) never sets the result; say why instead of timing out.
    await ready.catch(() => {
      throw new Error(`the page set no result; page errors: ${pageErrors.join('; ') || 'none'}`);
    });
    const result = await page.evaluate(() => (window as unknown as { result: Record<string, unknown> }).result);

    expect(result).not.toHaveProperty('failed');
    const created = { id: expect.any(Number), name: 'Browser Rex', categoryId: 9, status: 'pending' };
    expect(result).toEqual({
      created,
      listed: { pets: [created], nextCursor: null },
      notFound: { name: 'NotFoundError', isNotFound: true, isApiError: true, status: 404, code: 'not_found' },
      warnings: [expect.stringContaining('getPet')],
    });
    expect(pageErrors).toEqual([]);
    // The calls went through the browser's own fetch, with the key, to the live service.
    expect(proxied).toEqual([
      { method: 'POST', path: '/v1/pets', authorization: `Bearer ${TEST_KEY}` },
      { method: 'GET', path: '/v1/pets?limit=10&status=pending', authorization: `Bearer ${TEST_KEY}` },
      { method: 'GET', path: '/v1/pets/987654321', authorization: `Bearer ${TEST_KEY}` },
    ]);
  });
});
