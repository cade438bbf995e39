import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApp, type TestApp } from './support/test-app';

const get = (app: TestApp, path: string, init: RequestInit = {}) => fetch(`${app.origin}${path}`, { redirect: 'manual', ...init });

// Whoever types the service's address, a person in a browser or curl, is told where the API and its documents are.
describe('the service root (GET /)', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'petstore-home-'));
  let sut: TestApp;
  let withoutStorefront: TestApp;

  beforeAll(async () => {
    mkdirSync(join(scratch, 'storefront'));
    writeFileSync(join(scratch, 'storefront', 'index.html'), '<!doctype html><title>Pet Store</title>');
    sut = await startApp({ env: { STOREFRONT_DIR: join(scratch, 'storefront') } });
    withoutStorefront = await startApp({ env: { STOREFRONT_ENABLED: 'false' } });
  });
  afterAll(async () => {
    await sut?.close();
    await withoutStorefront?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('answers a program, without a key, with the links as JSON and the API description in Link (RFC 8631)', async () => {
    const response = await get(sut, '/', { headers: { accept: 'application/json' } });

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('link')).toBe('</docs/openapi.json>; rel="service-desc"; type="application/json", </docs>; rel="service-doc"');
    expect(response.headers.get('vary')).toMatch(/accept/i);
    expect(await response.json()).toEqual({ links: { api: '/v1', docs: '/docs', openapi: '/docs/openapi.json', storefront: '/storefront/' } });
  });

  it('answers a browser with a page of the same links, under the strict page policy', async () => {
    const response = await get(sut, '/', { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    const html = await response.text();
    expect([...html.matchAll(/<a href="([^"]+)">([^<]+)<\/a>/g)].map(([, href, text]) => [href, text])).toEqual([
      ['/docs', 'Swagger UI'],
      ['/docs/openapi.json', 'The OpenAPI document'],
      ['/storefront/', 'The storefront'],
    ]);
    expect(html).not.toMatch(/<script|<style| style=/);
  });

  it('leaves the storefront out where it is not served', async () => {
    expect(await (await get(withoutStorefront, '/')).json()).toEqual({ links: { api: '/v1', docs: '/docs', openapi: '/docs/openapi.json' } });
    expect(await (await get(withoutStorefront, '/', { headers: { accept: 'text/html' } })).text()).not.toContain('storefront');
  });

  it('points to addresses that answer', async () => {
    const { links } = (await (await get(sut, '/')).json()) as { links: Record<string, string> };
    for (const [name, path] of Object.entries(links)) {
      const response = await get(sut, name === 'api' ? `${path}/pets` : path);
      expect({ name, status: response.status }).toEqual({ name, status: name === 'api' ? 401 : 200 });
    }
  });

  it('is read only, and the root only: another method is a 405, a path below it the 404 of an unknown route', async () => {
    const posted = await get(sut, '/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect({ status: posted.status, allow: posted.headers.get('allow') }).toEqual({ status: 405, allow: 'GET, HEAD' });
    expect((await get(sut, '/index.html')).status).toBe(404);
  });
});
