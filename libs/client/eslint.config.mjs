import baseConfig from '../../eslint.config.mjs';

// The client runs in browsers too and loads nothing heavy: values only from the contract's plain entry,
// no Node built-ins, no Node globals.
export default [
  ...baseConfig,
  {
    files: ['**/*.ts'],
    ignores: ['**/*.spec.ts', '**/testing.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@petstore/contract/*'], allowTypeImports: true, message: 'Import values from @petstore/contract only.' },
            { group: ['node:*', 'fs', 'path', 'http', 'https', 'crypto', 'buffer'], message: 'The client must run in browsers.' },
          ],
        },
      ],
      'no-restricted-globals': ['error', 'process', 'Buffer', 'require', '__dirname'],
    },
  },
];
