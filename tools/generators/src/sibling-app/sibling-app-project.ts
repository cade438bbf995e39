import type { ProjectConfiguration } from '@nx/devkit';

/**
 * The project of a Node.js sibling: built into one file by tsup (the client and the contract's plain entry bundled in,
 * as the CLI is), served by running that file on the workspace's Node.js, and tested against the built service.
 */
export function siblingAppProject(name: string): ProjectConfiguration {
  const root = `apps/${name}`;
  return {
    name,
    root,
    sourceRoot: `${root}/src`,
    projectType: 'application',
    // scope:sibling: the client and the contract's plain entry only (eslint.config.mjs).
    tags: ['scope:sibling', 'type:app'],
    targets: {
      build: {
        executor: 'nx:run-commands',
        // tsup reads the libraries' sources through the workspace's aliases: nothing to build before.
        dependsOn: [],
        outputs: [`{workspaceRoot}/dist/${root}`],
        options: { command: `tsup --config ${root}/tsup.config.ts` },
      },
      serve: {
        executor: 'nx:run-commands',
        dependsOn: ['build'],
        options: { command: `tools/with-node.sh node dist/${root}/main.js` },
      },
      typecheck: {
        executor: 'nx:run-commands',
        options: { command: `tsc --noEmit -p ${root}/tsconfig.app.json && tsc --noEmit -p ${root}/tsconfig.spec.json` },
      },
      lint: { executor: '@nx/eslint:lint' },
      test: {
        executor: '@nx/jest:jest',
        // The test runs the built program against the built service.
        dependsOn: ['build', 'api:build'],
        outputs: [`{workspaceRoot}/coverage/${root}`],
        options: { jestConfig: `${root}/jest.config.js` },
      },
    },
  };
}
