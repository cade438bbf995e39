import { readProjectConfiguration, type Tree } from '@nx/devkit';
import { createTreeWithEmptyWorkspace } from '@nx/devkit/testing';
import { siblingAppGenerator } from './generator';

/** What the generator wrote: an empty workspace's tree starts with its own root files. */
const appFiles = (tree: Tree) => tree.listChanges().map((change) => change.path).filter((path) => path.startsWith('apps/')).sort();

describe('nx g @petstore/tools:sibling-app', () => {
  let tree: Tree;

  beforeEach(() => (tree = createTreeWithEmptyWorkspace()));

  it('writes apps/<name>: its project, configuration, program and tests', async () => {
    await siblingAppGenerator(tree, { name: 'stock-report' });

    expect(appFiles(tree)).toEqual(
      [
        'README.md',
        'eslint.config.mjs',
        'jest.config.js',
        'project.json',
        'src/app/client-options.spec.ts',
        'src/app/client-options.ts',
        'src/app/pets-by-status.ts',
        'src/main.spec.ts',
        'src/main.ts',
        'tsconfig.app.json',
        'tsconfig.json',
        'tsconfig.spec.json',
        'tsup.config.ts',
      ].map((file) => `apps/stock-report/${file}`),
    );
  });

  it('tags the project so that lint lets it import only the client and the contract', async () => {
    await siblingAppGenerator(tree, { name: 'stock-report' });

    const project = readProjectConfiguration(tree, 'stock-report');
    expect(project.tags).toEqual(['scope:sibling', 'type:app']);
    expect(Object.keys(project.targets ?? {}).sort()).toEqual(['build', 'lint', 'serve', 'test', 'typecheck']);
    expect(project.targets?.serve).toMatchObject({ dependsOn: ['build'], options: { command: 'tools/with-node.sh node dist/apps/stock-report/main.js' } });
  });

  it('writes the name into every file that names the app, and leaves no template behind', async () => {
    await siblingAppGenerator(tree, { name: 'stock-report' });

    expect(tree.read('apps/stock-report/tsup.config.ts', 'utf8')).toContain("outDir: 'dist/apps/stock-report'");
    expect(tree.read('apps/stock-report/src/main.spec.ts', 'utf8')).toContain("const KEY = 'pk_stock_report_test_key_0123456789';");
    for (const change of tree.listChanges().filter((change) => change.path.startsWith('apps/'))) {
      expect(change.path).not.toMatch(/\.template$/);
      expect(change.content?.toString()).not.toMatch(/<%|%>/);
    }
  });

  it('writes a web page on the client with --kind=browser: Vite builds and serves it, its test runs in jsdom', async () => {
    await siblingAppGenerator(tree, { name: 'shop-page', kind: 'browser' });

    expect(appFiles(tree)).toEqual(
      [
        'README.md',
        'eslint.config.mjs',
        'index.html',
        'jest.config.js',
        'project.json',
        'src/app/app.spec.tsx',
        'src/app/app.tsx',
        'src/app/pets-by-status.ts',
        'src/main.tsx',
        'src/testing/jsdom-environment.js',
        'tsconfig.app.json',
        'tsconfig.json',
        'tsconfig.spec.json',
        'tsconfig.vite.json',
        'vite.config.mts',
      ].map((file) => `apps/shop-page/${file}`),
    );
    const project = readProjectConfiguration(tree, 'shop-page');
    expect(project.tags).toEqual(['scope:sibling', 'type:app']);
    expect(project.targets?.build?.executor).toBe('@nx/vite:build');
    expect(project.targets?.serve).toEqual({ executor: '@nx/vite:dev-server', options: { buildTarget: 'shop-page:build' } });
    expect(project.targets?.typecheck?.options.command).toContain('tsconfig.vite.json');
  });

  it('refuses a kind it does not know', async () => {
    await expect(siblingAppGenerator(tree, { name: 'odd', kind: 'desktop' as never })).rejects.toThrow('--kind must be one of node, browser (got desktop)');
    expect(appFiles(tree)).toEqual([]);
  });

  it.each([['StockReport'], ['stock_report'], ['-stock'], ['1report'], ['stock--report'], ['']])('refuses the name %j, saying to use kebab-case', async (name) => {
    await expect(siblingAppGenerator(tree, { name })).rejects.toThrow('use kebab-case');
    expect(appFiles(tree)).toEqual([]);
  });

  it('refuses a name a project or a folder already has, writing nothing', async () => {
    await siblingAppGenerator(tree, { name: 'stock-report' });
    await expect(siblingAppGenerator(tree, { name: 'stock-report' })).rejects.toThrow('A project named "stock-report" exists already');

    const fresh = createTreeWithEmptyWorkspace();
    fresh.write('apps/taken/notes.txt', 'mine');
    await expect(siblingAppGenerator(fresh, { name: 'taken' })).rejects.toThrow('apps/taken exists already');
    expect(appFiles(fresh)).toEqual(['apps/taken/notes.txt']);
  });
});
