import nx from '@nx/eslint-plugin';

// Who may import whom (see docs/architecture.md, "Workspace layout"): a violation fails the lint.
const RUNTIME_HEAVY = ['@nestjs/*', 'class-validator', 'class-transformer', 'reflect-metadata', 'typeorm', 'sqlite3', 'pg'];

export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  ...nx.configs['flat/javascript'],
  { ignores: ['**/dist', '**/node_modules', '**/coverage', 'tmp', 'data'] },
  {
    files: ['**/*.ts', '**/*.js'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: true,
          allow: [],
          depConstraints: [
            { sourceTag: 'type:contract', onlyDependOnLibsWithTags: [] },
            {
              sourceTag: 'type:client',
              onlyDependOnLibsWithTags: ['type:contract'],
              bannedExternalImports: RUNTIME_HEAVY,
            },
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:contract', 'type:client'] },
            // End-to-end tests run the built apps as processes; in code they may only use the libraries.
            { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:contract', 'type:client', 'type:testing'] },
            { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:contract', 'type:testing'] },
            // tools/testing starts the built service: shared by the e2e tests and the tools, never by an app.
            { sourceTag: 'type:testing', onlyDependOnLibsWithTags: [] },
            { sourceTag: 'scope:api', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'scope:cli', onlyDependOnLibsWithTags: ['scope:shared', 'scope:client'] },
            { sourceTag: 'scope:client', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'scope:e2e', onlyDependOnLibsWithTags: ['scope:shared', 'scope:client'] },
          ],
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
];
