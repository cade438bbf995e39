import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, type NodeProcess, spawnNode, startService, stopNode, waitFor200 } from '@petstore/testing';
import { TEST_KEY } from './support/test-key';
import { postPet } from './support/with-test-key';

// README: `npx nx serve storefront` runs Vite's dev server at /storefront/ and forwards /v1 to the service
// (PETSTORE_API_ORIGIN, by default http://localhost:3000), so that the page and the API share an origin as they do
// when the service serves the built page.

const WORKSPACE = join(__dirname, '../../..');

describe('nx serve storefront', () => {
  let dir: string;
  let service: NodeProcess;
  let devServer: NodeProcess;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'petstore-dev-server-'));
    service = await startService({ env: { API_KEYS: TEST_KEY, DATABASE_URL: `sqlite:${join(dir, 'petstore.sqlite')}` } });
    const port = await freePort();
    // PORT too, so that spawnNode's origin is the dev server's: Nx passes --port and --host on to Vite.
    devServer = await spawnNode('the storefront dev server', join(WORKSPACE, 'node_modules/nx/dist/bin/nx.js'), {
      env: { HOME: process.env.HOME ?? dir, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', CI: 'true', PORT: String(port), PETSTORE_API_ORIGIN: service.origin },
      args: ['serve', 'storefront', '--host=127.0.0.1', `--port=${port}`],
    });
  }, 180_000);

  afterAll(async () => {
    if (devServer) await stopNode(devServer);
    if (service) await stopNode(service);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('serves the page at /storefront/ and forwards /v1 to the service, answers and headers as the service gave them', async () => {
    const { origin } = devServer;
    await waitFor200(devServer, '/storefront/');
    const page = await fetch(`${origin}/storefront/`);
    expect(await page.text()).toContain('<div id="root">');

    const created = (await (await postPet(service.origin, { name: 'Through the dev server', categoryId: 1 })).json()) as { id: number };
    const list = (at: string) => fetch(`${at}/v1/pets?limit=100`, { headers: { authorization: `Bearer ${TEST_KEY}` } });
    const [forwarded, direct] = [await list(origin), await list(service.origin)];
    expect(forwarded.status).toBe(200);
    const headers = (response: Response) => Object.fromEntries(['content-type', 'cache-control', 'content-security-policy', 'x-content-type-options'].map((name) => [name, response.headers.get(name)]));
    expect(headers(forwarded)).toEqual(headers(direct));
    const pets = (await forwarded.json()) as Array<{ id: number }>;
    expect(pets).toEqual(await direct.json());
    expect(pets.map(({ id }) => id)).toContain(created.id);
    const refused = await fetch(`${origin}/v1/pets`);
    expect(refused.status).toBe(401);
  });
});
