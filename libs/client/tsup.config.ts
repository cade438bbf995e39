import { defineConfig } from 'tsup';

// One self-contained package: the contract's plain entry (PetStatus, types) is bundled in, as ESM and CommonJS,
// with typings that resolve without the workspace (the build renames tsup's .d.mts to the .d.cts that
// package.json names for require, since the package is "type": "module").
export default defineConfig({
  entry: { index: 'libs/client/src/index.ts' },
  outDir: 'dist/libs/client',
  format: ['esm', 'cjs'],
  platform: 'neutral',
  target: 'es2020',
  tsconfig: 'libs/client/tsconfig.lib.json',
  dts: { resolve: ['@petstore/contract'] },
  noExternal: ['@petstore/contract'],
  clean: true,
  sourcemap: false,
  outExtension: ({ format }) => ({ js: format === 'cjs' ? '.cjs' : '.js' }),
});
