import type { Page } from 'playwright-core';

/**
 * Swagger UI's "Authorize" as a reader does it: the bearer key into the dialog, accepted (the dialog then offers
 * Logout), and the dialog closed, so that "Try it out" sends the key from then on.
 */
export async function authorizeInSwaggerUi(page: Page, key: string): Promise<void> {
  await page.locator('.auth-wrapper .btn.authorize').click();
  const dialog = page.locator('.modal-ux');
  await dialog.locator('#auth-bearer-value').fill(key);
  await dialog.locator('.btn.modal-btn.authorize').click();
  await dialog.locator('.btn.modal-btn', { hasText: 'Logout' }).waitFor();
  await dialog.locator('.btn.modal-btn.btn-done').click();
  await dialog.waitFor({ state: 'detached' });
}
