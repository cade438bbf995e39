const { NxAppWebpackPlugin } = require('@nx/webpack/app-plugin');
const { join } = require('node:path');

module.exports = {
  output: { path: join(__dirname, '../../dist/apps/api'), clean: true },
  plugins: [
    new NxAppWebpackPlugin({
      target: 'node',
      compiler: 'tsc',
      main: './src/main.ts',
      // The service's commands besides serving (npm run keys, npm run webhooks, npm run openapi): built with it, from
      // the same sources.
      additionalEntryPoints: [
        { entryName: 'keys', entryPath: './src/admin/keys.command.ts' },
        { entryName: 'webhooks', entryPath: './src/admin/webhooks.command.ts' },
        { entryName: 'openapi', entryPath: './src/admin/openapi.command.ts' },
      ],
      tsConfig: './tsconfig.app.json',
      optimization: false,
      outputHashing: 'none',
      generatePackageJson: true,
      sourceMap: true,
    }),
  ],
};
