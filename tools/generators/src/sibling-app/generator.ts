import { addProjectConfiguration, generateFiles, getProjects, joinPathFragments, logger, type Tree } from '@nx/devkit';
import type { SiblingAppKind, SiblingAppSchema } from './schema';
import { siblingAppProject } from './sibling-app-project';

const NAME = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

/** What to do next, by kind: said once the files are written. */
const NEXT_STEPS: Record<SiblingAppKind, (name: string) => string[]> = {
  node: (name) => [`  npx nx serve ${name}    # builds it and runs it against PETSTORE_URL with PETSTORE_API_KEY`],
  browser: (name) => [`  npx nx serve ${name}    # Vite's dev server at http://localhost:4300/, forwarding /v1 to the service`],
};

/** `nx g @petstore/tools:sibling-app <name>`: apps/<name>, an app on the shared client, ready to build, serve and test. */
export async function siblingAppGenerator(tree: Tree, { name, kind = 'node' }: SiblingAppSchema): Promise<() => void> {
  const root = `apps/${name}`;
  if (!NAME.test(name)) throw new Error(`"${name}" is not a name for an app: use kebab-case (lower-case letters, digits, hyphens), e.g. stock-report.`);
  if (!(kind in NEXT_STEPS)) throw new Error(`--kind must be one of ${Object.keys(NEXT_STEPS).join(', ')} (got ${kind}).`);
  if (getProjects(tree).has(name)) throw new Error(`A project named "${name}" exists already: choose another name.`);
  if (tree.exists(root)) throw new Error(`${root} exists already: choose another name, or remove it first.`);

  addProjectConfiguration(tree, name, siblingAppProject(name, kind));
  for (const files of ['common', kind]) generateFiles(tree, joinPathFragments(__dirname, 'files', files), root, { name });
  return () =>
    logger.info(
      [
        `${root} is ready. With the service running (npm start, in another shell):`,
        ...NEXT_STEPS[kind](name),
        `  npx nx test ${name}     # its test, against a service it starts`,
        `  npx nx lint ${name}     # it may import @petstore/client and @petstore/contract, nothing of the service's`,
      ].join('\n'),
    );
}

export default siblingAppGenerator;
