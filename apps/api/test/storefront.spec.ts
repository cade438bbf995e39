import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectError } from './support/assertions';
import { rawRequest } from './support/raw-http';
import { AUTH, startApp, type TestApp } from './support/test-app';
import { until } from './support/until';

const PUBLIC_BASE_URL = 'https://petstore.example.com/v1';

// A stand-in for `nx build storefront`'s output: Vite's index.html naming its hashed files under assets/.
const INDEX_HTML =
  '<!doctype html><html lang="en"><head><title>Pet Store</title>' +
  '<script type="module" crossorigin src="/storefront/assets/app-1234.js"></script>' +
  '<link rel="stylesheet" crossorigin href="/storefront/assets/app-1234.css"></head><body><div id="root"></div></body></html>';
const SCRIPT = 'document.getElementById("root").textContent = "Pet Store";\n';
const STYLE = 'body { margin: 0; }\n';
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The Content-Security-Policy as directive -> sources. */
function csp(response: Response): Record<string, string[]> {
  return Object.fromEntries(
    (response.headers.get('content-security-policy') ?? '')
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...sources]) => [name, sources]),
  );
}

/** Helmet's headers besides the policy and framing, which our pages (Swagger UI, the storefront) share. */
const sharedSecurityHeaders = (response: Response) =>
  Object.fromEntries(
    [...response.headers].filter(([name]) =>
      [
        'strict-transport-security',
        'x-content-type-options',
        'referrer-policy',
        'cross-origin-opener-policy',
        'cross-origin-resource-policy',
        'origin-agent-cluster',
        'x-dns-prefetch-control',
        'x-download-options',
        'x-permitted-cross-domain-policies',
        'x-xss-protection',
      ].includes(name),
    ),
  );

const get = (app: TestApp, path: string, init: RequestInit = {}) => fetch(`${app.origin}${path}`, { redirect: 'manual', ...init });

/** The app's log lines up to its answer to `path`: lines are written in batches, in order. */
const logsUpTo = (app: TestApp, path: string) =>
  until(app.logs, (lines) => lines.some((line) => line.url === path && line.msg === 'request completed'), `the log line of ${path}`);

const openApiDocument = async (app: TestApp) => (await (await get(app, '/docs/openapi.json')).json()) as { paths: Record<string, unknown> };

describe('the storefront (/storefront/)', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'petstore-storefront-'));
  const built = join(scratch, 'storefront');
  const unbuilt = join(scratch, 'unbuilt');

  beforeAll(() => {
    mkdirSync(join(built, 'assets'), { recursive: true });
    writeFileSync(join(built, 'index.html'), INDEX_HTML);
    writeFileSync(join(built, 'assets', 'app-1234.js'), SCRIPT);
    writeFileSync(join(built, 'assets', 'app-1234.css'), STYLE);
    writeFileSync(join(built, '.env'), 'SECRET=storefront-dotfile');
    // Beside the build, where a path that climbs out of it would land.
    writeFileSync(join(scratch, 'secret.txt'), 'outside-the-build');
    mkdirSync(unbuilt);
  });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  describe('built and on (the default)', () => {
    let sut: TestApp;
    beforeAll(async () => {
      sut = await startApp({ env: { STOREFRONT_DIR: built, PUBLIC_BASE_URL } });
    });
    afterAll(() => sut?.close());

    it('redirects /storefront to /storefront/, keeping the query', async () => {
      for (const [path, location] of [
        ['/storefront', '/storefront/'],
        ['/storefront?status=sold', '/storefront/?status=sold'],
      ]) {
        const response = await get(sut, path);
        expect({ status: response.status, location: response.headers.get('location') }).toEqual({ status: 301, location });
      }
    });

    it('serves index.html at /storefront/, never cached without asking, with no key', async () => {
      for (const path of ['/storefront/', '/storefront/?status=available', '/storefront/index.html']) {
        const response = await get(sut, path);
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toMatch(/^text\/html/);
        expect(response.headers.get('cache-control')).toBe('no-cache');
        expect(response.headers.get('etag')).toEqual(expect.any(String));
        expect(await response.text()).toBe(INDEX_HTML);
      }
    });

    it('answers with a strict Content-Security-Policy: its own files only, no inline script or style, no eval', async () => {
      const response = await get(sut, '/storefront/');
      expect(csp(response)).toEqual({
        'default-src': ["'self'"],
        'script-src': ["'self'"],
        'script-src-attr': ["'none'"],
        'style-src': ["'self'"],
        'img-src': ["'self'", 'data:'],
        // The service that served the page, and no other: the page asks for no address.
        'connect-src': ["'self'"],
        'base-uri': ["'none'"],
        'form-action': ["'self'"],
        'frame-ancestors': ["'none'"],
        'object-src': ["'none'"],
      });
      expect(response.headers.get('content-security-policy')).not.toMatch(/unsafe-inline|unsafe-eval|unsafe-hashes|\*/);
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      // Every other security header as on Swagger UI's page: a page's (the API's JSON carries fewer, docs/security.md).
      const docs = await get(sut, '/docs');
      expect(sharedSecurityHeaders(response)).toEqual(sharedSecurityHeaders(docs));
      expect(Object.keys(sharedSecurityHeaders(response))).toHaveLength(10);
    });

    it.each([
      ['app-1234.js', /^(text|application)\/javascript/, SCRIPT],
      ['app-1234.css', /^text\/css/, STYLE],
    ])('serves the hashed asset %s with its type, cached for good, with the same policy', async (file, type, content) => {
      const response = await get(sut, `/storefront/assets/${file}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(type);
      expect(response.headers.get('cache-control')).toBe(IMMUTABLE);
      expect(csp(response)['script-src']).toEqual(["'self'"]);
      expect(await response.text()).toBe(content);
    });

    it('needs no key, and a wrong one changes nothing', async () => {
      for (const path of ['/storefront/', '/storefront/assets/app-1234.js']) {
        const response = await get(sut, path, { headers: { authorization: 'Bearer pk_wrong_key_0123456789abcdef' } });
        expect(response.status).toBe(200);
        expect(response.headers.get('www-authenticate')).toBeNull();
      }
    });

    it('answers HEAD like GET, without a body', async () => {
      const index = await get(sut, '/storefront/', { method: 'HEAD' });
      expect(index.status).toBe(200);
      expect(index.headers.get('content-type')).toMatch(/^text\/html/);
      expect(index.headers.get('cache-control')).toBe('no-cache');
      expect(csp(index)['style-src']).toEqual(["'self'"]);
      expect(await index.text()).toBe('');
      const asset = await get(sut, '/storefront/assets/app-1234.js', { method: 'HEAD' });
      expect({ status: asset.status, length: asset.headers.get('content-length'), cache: asset.headers.get('cache-control') }).toEqual({
        status: 200,
        length: String(Buffer.byteLength(SCRIPT)),
        cache: IMMUTABLE,
      });
      const redirect = await get(sut, '/storefront', { method: 'HEAD' });
      expect({ status: redirect.status, location: redirect.headers.get('location') }).toEqual({ status: 301, location: '/storefront/' });
    });

    it('answers any other path below it with the 404 Error of an unknown route, not index.html', async () => {
      for (const path of ['/storefront/pets', '/storefront/assets/app-0000.js', '/storefront/.env', '/storefront/assets/']) {
        const message = await expectError(await get(sut, path), 404, 'not_found');
        expect(message).toContain(path);
      }
      const unknown = await get(sut, '/nope');
      expect((await expectError(await get(sut, '/storefront/nope'), 404, 'not_found')).replace('/storefront/nope', '/nope')).toBe(
        await expectError(unknown, 404, 'not_found'),
      );
    });

    it('serves nothing outside its directory: a path that climbs out is an unknown one (Swagger UI\'s files the same)', async () => {
      for (const path of [
        '/storefront/..%2fsecret.txt',
        '/storefront/%2e%2e/secret.txt',
        '/storefront/assets/..%2f..%2fsecret.txt',
        '/storefront//etc/passwd',
        '/docs/%2e%2e/x',
      ]) {
        const response = await rawRequest(sut.origin, `GET ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
        expect({ path, status: response.status, body: JSON.parse(response.body) as unknown }).toEqual({
          path,
          status: 404,
          body: { code: 'not_found', message: expect.stringContaining(path) as unknown, status: 404 },
        });
      }
    });

    it('allows GET and HEAD only: another method is 405 with Allow', async () => {
      const response = await get(sut, '/storefront/', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
      await expectError(response, 405, 'method_not_allowed');
      expect(response.headers.get('allow')).toBe('GET, HEAD');
    });

    it('leaves the API, Swagger UI and the OpenAPI document as they were', async () => {
      await expectError(await get(sut, '/v1/pets'), 401, 'unauthorized');
      const pets = await get(sut, '/v1/pets', { headers: AUTH });
      expect(pets.status).toBe(200);
      expect(csp(pets)).toEqual({ 'default-src': ["'none'"], 'frame-ancestors': ["'none'"] });
      const docs = await get(sut, '/docs');
      expect(docs.status).toBe(200);
      expect(csp(docs)['style-src']).toContain("'unsafe-inline'");
      expect(Object.keys((await openApiDocument(sut)).paths).filter((path) => path.includes('storefront'))).toEqual([]);
    });
  });

  describe('turned off (STOREFRONT_ENABLED=false)', () => {
    let sut: TestApp;
    beforeAll(async () => {
      sut = await startApp({ env: { STOREFRONT_ENABLED: 'false', STOREFRONT_DIR: built, PUBLIC_BASE_URL } });
    });
    afterAll(() => sut?.close());

    it('answers every storefront path as an unknown route, and says nothing about it', async () => {
      for (const path of ['/storefront', '/storefront/', '/storefront/index.html', '/storefront/assets/app-1234.js']) {
        await expectError(await get(sut, path), 404, 'not_found');
      }
      expect((await get(sut, '/storefront/', { method: 'HEAD' })).status).toBe(404);
      expect((await logsUpTo(sut, '/storefront/assets/app-1234.js')).filter((line) => line.context === 'Storefront')).toEqual([]);
    });

    it('serves the same OpenAPI document as with the storefront on', async () => {
      const on = await startApp({ env: { STOREFRONT_DIR: built, PUBLIC_BASE_URL } });
      try {
        expect(await openApiDocument(sut)).toEqual(await openApiDocument(on));
      } finally {
        await on.close();
      }
    });
  });

  describe('not built (no index.html in STOREFRONT_DIR)', () => {
    let sut: TestApp;
    beforeAll(async () => {
      sut = await startApp({ env: { STOREFRONT_DIR: unbuilt } });
    });
    afterAll(() => sut?.close());

    it('starts, says once how to build it, and answers /storefront/ 404', async () => {
      expect((await get(sut, '/health/ready')).status).toBe(200);
      await expectError(await get(sut, '/storefront/'), 404, 'not_found');
      await expectError(await get(sut, '/storefront'), 404, 'not_found');
      const said = (await logsUpTo(sut, '/storefront')).filter((line) => String(line.msg).includes('Storefront not built'));
      expect(said).toEqual([expect.objectContaining({ level: 40, msg: expect.stringContaining(unbuilt) })]);
      expect(said[0].msg).toContain('npx nx build storefront');
    });
  });
});
