import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

// The built storefront as a browser downloads it (`nx build storefront`, run by `npm test` before Jest): none of the
// server's framework in it, within its budget. The build checks both too (apps/storefront/vite/bundle-checks.mts), by
// module; this reads the files themselves, so that a change to the build cannot quietly drop the check.
const ASSETS = join(__dirname, '../../../dist/apps/storefront/assets');

/** Text each package carries whatever the minifier does (string literals and property names survive it). */
const SIGNATURES: Array<[string, string]> = [
  ['class-validator', 'an unknown value was passed to the validate function'],
  ['class-transformer', 'excludeExtraneousValues'],
  ['reflect-metadata', 'getOwnMetadataKeys'],
  ['@nestjs/common', '__module:global__'],
  ['@nestjs/swagger', '/apiModelProperties'],
];

const BUDGET_BYTES = { js: 100 * 1024, css: 10 * 1024 };

describe('the built storefront', () => {
  const files = readdirSync(ASSETS);
  const read = (kind: 'js' | 'css') => files.filter((file) => file.endsWith(`.${kind}`)).map((file) => readFileSync(join(ASSETS, file)));

  it('is JavaScript and CSS files, nothing inlined into the page', () => {
    expect(read('js').length).toBeGreaterThan(0);
    expect(read('css').length).toBeGreaterThan(0);
    const page = readFileSync(join(ASSETS, '../index.html'), 'utf8');
    expect(page).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    expect(page).not.toMatch(/<style|\sstyle=/);
  });

  it.each(SIGNATURES)('bundles nothing of %s', (_, signature) => {
    for (const file of read('js')) expect(file.includes(signature)).toBe(false);
  });

  it('keeps within its budget: 100 KB of gzipped JavaScript and 10 KB of CSS', () => {
    const gzipped = (kind: 'js' | 'css') => read(kind).reduce((sum, file) => sum + gzipSync(file, { level: 9 }).length, 0);
    process.stderr.write(`Storefront, gzipped: JavaScript ${gzipped('js')} bytes, CSS ${gzipped('css')} bytes\n`);
    expect(gzipped('js')).toBeLessThanOrEqual(BUDGET_BYTES.js);
    expect(gzipped('css')).toBeLessThanOrEqual(BUDGET_BYTES.css);
  });
});
