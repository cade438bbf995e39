import nx from '@nx/eslint-plugin';

// Who may import whom (see docs/architecture.md, "Workspace layout"): a violation fails the lint.
const RUNTIME_HEAVY = ['@nestjs/*', 'class-validator', 'class-transformer', 'reflect-metadata', 'typeorm', 'sqlite3', 'pg'];

/** Who may import whom; `testsToo` for an app's own tests, which may also use the helpers of tools/testing. */
const boundaries = ({ testsToo }) => [
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
      { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:contract', 'type:client', ...(testsToo ? ['type:testing'] : [])] },
      // End-to-end tests run the built apps as processes; in code they may only use the libraries.
      { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:contract', 'type:client', 'type:testing'] },
      { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:contract', 'type:testing'] },
      // tools/testing starts the built service: shared by the tests and the tools, never by an app's sources. It may
      // read the contract, to speak of its fields (EVERY_KIND_FIELDS).
      { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:contract'] },
      { sourceTag: 'scope:api', onlyDependOnLibsWithTags: ['scope:shared'] },
      { sourceTag: 'scope:cli', onlyDependOnLibsWithTags: ['scope:shared', 'scope:client'] },
      { sourceTag: 'scope:client', onlyDependOnLibsWithTags: ['scope:shared'] },
      { sourceTag: 'scope:e2e', onlyDependOnLibsWithTags: ['scope:shared', 'scope:client'] },
      // A browser app: the client and the contract's plain entry, nothing of the server's (see no-restricted-imports).
      { sourceTag: 'scope:storefront', onlyDependOnLibsWithTags: ['scope:shared', 'scope:client'], bannedExternalImports: RUNTIME_HEAVY },
      // An app made by `nx g @petstore/tools:sibling-app`: the same, through siblingAppConfig below.
      { sourceTag: 'scope:sibling', onlyDependOnLibsWithTags: ['scope:shared', 'scope:client'], bannedExternalImports: RUNTIME_HEAVY },
    ],
  },
];

const workspaceConfig = [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  ...nx.configs['flat/javascript'],
  { ignores: ['**/dist', '**/node_modules', '**/coverage', 'tmp', 'data'] },
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.js'],
    rules: {
      '@nx/enforce-module-boundaries': boundaries({ testsToo: false }),
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/test/**/*.ts', '**/*.spec.ts', '**/*.spec.tsx'],
    rules: { '@nx/enforce-module-boundaries': boundaries({ testsToo: true }) },
  },
];

export default workspaceConfig;

/** A sibling app's configuration (tools/generators): the contract's decorated entry is the service's, not a client's. */
export const siblingAppConfig = [
  ...workspaceConfig,
  {
    files: ['**/*.ts', '**/*.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: '@petstore/contract/dto', message: "A sibling app uses the client and the contract's plain entry, @petstore/contract: the dto entry is the service's." }] },
      ],
    },
  },
];
