import { gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** The whole app's JavaScript and CSS, gzipped: what a phone on a slow network downloads on its first visit. */
export const BUDGET_BYTES = { js: 100 * 1024, css: 10 * 1024 } as const;

/**
 * What must never reach a browser: the server's framework and the contract's decorated classes (its `dto` entry),
 * which would bring them. The app imports the client and the contract's plain entry only.
 */
export const FORBIDDEN_MODULES: ReadonlyArray<[RegExp, string]> = [
  [/[\\/]node_modules[\\/]@nestjs[\\/]/, '@nestjs/*'],
  [/[\\/]node_modules[\\/]class-validator[\\/]/, 'class-validator'],
  [/[\\/]node_modules[\\/]class-transformer[\\/]/, 'class-transformer'],
  [/[\\/]node_modules[\\/]reflect-metadata[\\/]/, 'reflect-metadata'],
  [/[\\/]node_modules[\\/]typeorm[\\/]/, 'typeorm'],
  [/[\\/]libs[\\/]contract[\\/]src[\\/](dto\.ts|lib[\\/]dto[\\/])/, "the contract's decorated classes (@petstore/contract/dto)"],
];

const gzipped = (source: string | Uint8Array) => gzipSync(source, { level: 9 }).length;
const kilobytes = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/**
 * Fails the build when a forbidden module is bundled or the app outgrows its budget, and prints the gzipped sizes
 * (docs/performance.md keeps the figure): a check in the build, not a timed test.
 */
export function bundleChecks(): Plugin {
  return {
    name: 'petstore-bundle-checks',
    apply: 'build',
    generateBundle(_options, bundle) {
      const sizes = { js: 0, css: 0 };
      for (const file of Object.values(bundle)) {
        if (file.type === 'chunk') {
          for (const id of Object.keys(file.modules)) {
            const forbidden = FORBIDDEN_MODULES.find(([pattern]) => pattern.test(id));
            if (forbidden) this.error(`${forbidden[1]} must not reach the browser, but ${file.fileName} bundles ${id}`);
          }
          sizes.js += gzipped(file.code);
        } else if (file.fileName.endsWith('.css')) {
          sizes.css += gzipped(file.source);
        }
      }
      this.info(`gzipped: JavaScript ${kilobytes(sizes.js)} of ${kilobytes(BUDGET_BYTES.js)}, CSS ${kilobytes(sizes.css)} of ${kilobytes(BUDGET_BYTES.css)}`);
      for (const kind of ['js', 'css'] as const) {
        if (sizes[kind] > BUDGET_BYTES[kind]) {
          this.error(`the storefront's ${kind === 'js' ? 'JavaScript' : 'CSS'} is ${kilobytes(sizes[kind])} gzipped, over its budget of ${kilobytes(BUDGET_BYTES[kind])}`);
        }
      }
    },
  };
}
