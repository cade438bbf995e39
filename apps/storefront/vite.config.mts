import { nxViteTsPaths } from '@nx/vite/plugins/nx-tsconfig-paths.plugin';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { bundleChecks } from './vite/bundle-checks.mts';

/** Where the service serves the built app (apps/api, STOREFRONT_ENABLED) and where the dev server serves it. */
const BASE = '/storefront/';
/** The API the dev server forwards `/v1` to, so that the page and the API share an origin as when the service serves it. */
const API_ORIGIN = process.env.PETSTORE_API_ORIGIN ?? 'http://localhost:3000';

export default defineConfig({
  root: import.meta.dirname,
  base: BASE,
  cacheDir: '../../node_modules/.vite/apps/storefront',
  plugins: [react(), nxViteTsPaths(), bundleChecks()],
  server: { port: 4200, host: 'localhost', proxy: { '/v1': API_ORIGIN } },
  build: {
    outDir: '../../dist/apps/storefront',
    emptyOutDir: true,
    reportCompressedSize: false,
    // Everything in files of its own: the page's Content-Security-Policy allows no inline script or style.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
  },
});
