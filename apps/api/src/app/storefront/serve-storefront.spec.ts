import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../config/app-config';
import { builtStorefront, storefrontCacheControl } from './serve-storefront';

describe(storefrontCacheControl.name, () => {
  it.each([
    ['assets/index-B2x9kQ1c.js', 'public, max-age=31536000, immutable'],
    ['assets/index-D4f1.css', 'public, max-age=31536000, immutable'],
    [join('assets', 'fonts', 'inter-3f2a.woff2'), 'public, max-age=31536000, immutable'],
    ['index.html', 'no-cache'],
    ['favicon.svg', 'no-cache'],
    ['assets-old.js', 'no-cache'],
  ])('%s: %s', (path, expected) => {
    expect(storefrontCacheControl(path)).toBe(expected);
  });
});

describe(builtStorefront.name, () => {
  const KEY = 'pk_unit_key_0123456789';
  let directory: string;
  const logger = { warn: jest.fn() };
  const config = (env: Record<string, string> = {}) => loadConfig({ API_KEYS: KEY, STOREFRONT_DIR: directory, ...env });

  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'petstore-storefront-'));
    logger.warn.mockClear();
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  it('is the directory once it holds an index.html, and says nothing', () => {
    writeFileSync(join(directory, 'index.html'), '<!doctype html>');
    expect(builtStorefront(config(), logger)).toBe(directory);
    expect(logger.warn).not.toHaveBeenCalled();
  });

  it('is undefined when not built, saying so once with how to build it', () => {
    expect(builtStorefront(config(), logger)).toBeUndefined();
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn).toHaveBeenCalledWith({ context: 'Storefront' }, expect.stringContaining(directory));
    expect(logger.warn.mock.calls[0][1]).toMatch(/npx nx build storefront.*STOREFRONT_ENABLED=false/);
  });

  it('is undefined when turned off, built or not, and says nothing', () => {
    writeFileSync(join(directory, 'index.html'), '<!doctype html>');
    expect(builtStorefront(config({ STOREFRONT_ENABLED: 'false' }), logger)).toBeUndefined();
    expect(logger.warn).not.toHaveBeenCalled();
  });
});
