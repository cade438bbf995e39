import type { ProjectConfiguration, TargetConfiguration } from '@nx/devkit';
import type { SiblingAppKind } from './schema';

/**
 * A Node.js program is built into one file by tsup (the client and the contract's plain entry bundled in, as the CLI
 * is) and served by running that file on the workspace's Node.js; a web page is built and served by Vite (@nx/vite),
 * as the storefront is.
 */
function buildAndServe(name: string, kind: SiblingAppKind): Record<string, TargetConfiguration> {
  const root = `apps/${name}`;
  if (kind === 'browser') {
    return {
      build: {
        executor: '@nx/vite:build',
        // Vite reads the libraries' sources through the workspace's aliases (nxViteTsPaths): nothing to build before.
        dependsOn: [],
        outputs: ['{options.outputPath}'],
        options: { outputPath: `dist/${root}`, configFile: `${root}/vite.config.mts`, skipTypeCheck: true },
      },
      serve: { executor: '@nx/vite:dev-server', options: { buildTarget: `${name}:build` } },
    };
  }
  return {
    build: {
      executor: 'nx:run-commands',
      // tsup reads the libraries' sources through the workspace's aliases: nothing to build before.
      dependsOn: [],
      outputs: [`{workspaceRoot}/dist/${root}`],
      options: { command: `tsup --config ${root}/tsup.config.ts` },
    },
    serve: { executor: 'nx:run-commands', dependsOn: ['build'], options: { command: `tools/with-node.sh node dist/${root}/main.js` } },
  };
}

const TYPECHECKED = { node: ['app', 'spec'], browser: ['app', 'spec', 'vite'] };

/** The project of an app made by the generator: its targets, and the tags that keep it to the client. */
export function siblingAppProject(name: string, kind: SiblingAppKind): ProjectConfiguration {
  const root = `apps/${name}`;
  return {
    name,
    root,
    sourceRoot: `${root}/src`,
    projectType: 'application',
    // scope:sibling: the client and the contract's plain entry only (eslint.config.mjs).
    tags: ['scope:sibling', 'type:app'],
    targets: {
      ...buildAndServe(name, kind),
      typecheck: {
        executor: 'nx:run-commands',
        options: { command: TYPECHECKED[kind].map((config) => `tsc --noEmit -p ${root}/tsconfig.${config}.json`).join(' && ') },
      },
      lint: { executor: '@nx/eslint:lint' },
      test: {
        executor: '@nx/jest:jest',
        // The tests run against the built service; a Node.js program's also runs its own build.
        dependsOn: kind === 'node' ? ['build', 'api:build'] : ['api:build'],
        outputs: [`{workspaceRoot}/coverage/${root}`],
        options: { jestConfig: `${root}/jest.config.js` },
      },
    },
  };
}
