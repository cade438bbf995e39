import { defineConfig } from 'tsup';

// One file that runs with nothing beside it: the client (through the workspace alias) and commander are bundled in,
// so `node dist/apps/cli/main.js` works without the workspace's node_modules.
export default defineConfig({
  entry: { main: 'apps/cli/src/main.ts' },
  outDir: 'dist/apps/cli',
  format: ['cjs'],
  platform: 'node',
  target: 'node20',
  tsconfig: 'apps/cli/tsconfig.app.json',
  noExternal: ['@petstore/client', 'commander', 'standardwebhooks'],
  banner: { js: '#!/usr/bin/env node' },
  clean: true,
});
