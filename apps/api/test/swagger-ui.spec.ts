import type { Browser, Locator, Page } from 'playwright-core';
import type { Pet } from '@petstore/contract';
import { authorizeInSwaggerUi, chromiumRuns, freePort, launchChromium } from '@petstore/testing';
import { JSON_AUTH, startApp, TEST_KEY, type TestApp } from './support/test-app';

(chromiumRuns('the Swagger UI browser tests') ? describe : describe.skip)('Swagger UI (/docs)', () => {
  let sut: TestApp;
  let browser: Browser;
  let page: Page;
  let seeded: Pet;

  /** An operation's block, whichever tag it is under (Swagger UI's ids are operations-<tag>-<operationId>). */
  const operation = (operationId: string) => page.locator(`[id^="operations-"][id$="-${operationId}"]`);

  /** Expands listPets, presses "Try it out" and "Execute"; resolves to the live response row. */
  async function executeListPets(): Promise<Locator> {
    const listPets = operation('listPets');
    await listPets.locator('.opblock-summary-control').click();
    await listPets.locator('.try-out__btn').click();
    const [response] = await Promise.all([
      page.waitForResponse((r) => new URL(r.url()).pathname === '/v1/pets'),
      listPets.locator('.btn.execute').click(),
    ]);
    // Proves "Try it out" followed the document's servers to this very app.
    expect(new URL(response.url()).origin).toBe(sut.origin);
    const row = listPets.locator('.responses-table.live-responses-table .response');
    await row.waitFor();
    return row;
  }

  beforeAll(async () => {
    // The document's servers must name the port before the app listens on it.
    const port = await freePort();
    sut = await startApp({ port, env: { PUBLIC_BASE_URL: `http://127.0.0.1:${port}/v1` } });
    const response = await fetch(`${sut.origin}/v1/pets`, {
      method: 'POST',
      headers: JSON_AUTH,
      body: JSON.stringify({ name: 'Swagger Rex', categoryId: 1 }),
    });
    expect(response.status).toBe(201);
    seeded = (await response.json()) as Pet;
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await sut?.close();
  });

  // A fresh context per test: persistAuthorization keeps the key in localStorage, which must not leak across tests.
  beforeEach(async () => {
    page = await (await browser.newContext()).newPage();
    // Generous for a loaded machine, and below Jest's 60 s, so that a missing element fails with its selector rather
    // than a bare timeout.
    page.setDefaultTimeout(50_000);
    await page.goto(`${sut.origin}/docs`);
    await page.locator('.opblock').first().waitFor();
  });

  afterEach(() => page?.context().close());

  it('shows the four operations, getPet as deprecated', async () => {
    const expected = [
      ['listPets', 'GET', '/pets'],
      ['createPet', 'POST', '/pets'],
      ['getPet', 'GET', '/pets/{petId}'],
      ['streamEvents', 'GET', '/events'],
    ];
    for (const [operationId, method, path] of expected) {
      const summary = operation(operationId).locator('.opblock-summary');
      expect(await summary.locator('.opblock-summary-method').innerText()).toBe(method);
      // Deprecated paths carry a different class, so the path is read from its data attribute.
      expect(await summary.locator('[data-path]').getAttribute('data-path')).toBe(path);
    }
    expect(await page.locator('.operation-tag-content .opblock').count()).toBe(expected.length);
    expect(await operation('getPet').getAttribute('class')).toContain('opblock-deprecated');
    expect(await operation('listPets').getAttribute('class')).not.toContain('opblock-deprecated');
  });

  it('shows the pet.created event under Webhooks, from the document’s OpenAPI 3.1 webhooks', async () => {
    const webhooks = page.locator('.webhooks');
    expect(await webhooks.locator('h2').innerText()).toBe('Webhooks');
    const blocks = webhooks.locator('.opblock');
    expect(await blocks.count()).toBe(1);
    const summary = page.locator('#operations-webhooks-petCreated .opblock-summary');
    expect(await summary.locator('.opblock-summary-method').innerText()).toBe('POST');
    expect(await summary.innerText()).toContain('pet.created');
  });

  it('answers 401 to "Try it out" before authorizing', async () => {
    const row = await executeListPets();
    expect((await row.locator('.response-col_status').innerText()).trim()).toBe('401');
  });

  it('lists the seeded pet once authorized with the bearer key', async () => {
    await authorizeInSwaggerUi(page, TEST_KEY);

    const row = await executeListPets();
    expect((await row.locator('.response-col_status').innerText()).trim()).toBe('200');
    expect(await row.locator('.response-col_description').innerText()).toContain(seeded.name);
  });
});
