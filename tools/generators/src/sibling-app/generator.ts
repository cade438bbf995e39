import { addProjectConfiguration, generateFiles, getProjects, joinPathFragments, logger, type Tree } from '@nx/devkit';
import type { SiblingAppSchema } from './schema';
import { siblingAppProject } from './sibling-app-project';

const NAME = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

/** `nx g @petstore/tools:sibling-app <name>`: apps/<name>, a program on the shared client, ready to build, serve and test. */
export async function siblingAppGenerator(tree: Tree, options: SiblingAppSchema): Promise<() => void> {
  const { name } = options;
  const root = `apps/${name}`;
  if (!NAME.test(name)) throw new Error(`"${name}" is not a name for an app: use kebab-case (lower-case letters, digits, hyphens), e.g. stock-report.`);
  if (getProjects(tree).has(name)) throw new Error(`A project named "${name}" exists already: choose another name.`);
  if (tree.exists(root)) throw new Error(`${root} exists already: choose another name, or remove it first.`);

  addProjectConfiguration(tree, name, siblingAppProject(name));
  generateFiles(tree, joinPathFragments(__dirname, 'files', options.kind ?? 'node'), root, { name });
  return () =>
    logger.info(
      [
        `${root} is ready. With the service running (npm start, in another shell):`,
        `  npx nx serve ${name}    # builds it and runs it against PETSTORE_URL with PETSTORE_API_KEY`,
        `  npx nx test ${name}     # its test, against a service it starts`,
        `  npx nx lint ${name}     # it may import @petstore/client and @petstore/contract, nothing of the service's`,
      ].join('\n'),
    );
}

export default siblingAppGenerator;
