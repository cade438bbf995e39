import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { imageTagOf, MANIFEST_IMAGES } from './image-tag';
import { scratchWorkspace } from './support/scratch-workspace';

// The release as docs/releasing.md has a maintainer cut it, on a scratch worktree of HEAD: `npm run release` writes
// the version once (the plans decide it, Nx writes both packages) and carries it to the document and its released
// copy, and each package's changelog gets the plans that name it; `npm run plan-check` then holds every later change
// to a released project to a version plan naming it. Steps run in order, each on what the one before left.

jest.setTimeout(900_000);

const PLANS = '.nx/version-plans';

describe('the release process', () => {
  const workspace = scratchWorkspace();
  const read = (path: string) => readFileSync(join(workspace.root, path), 'utf8');
  const readJson = (path: string) => JSON.parse(read(path));
  /** A version plan for `packages`: `__default__` for both, else `client` or `contract` (docs/releasing.md). */
  const plan = (name: string, bump: string, message: string, packages = '__default__') => {
    mkdirSync(join(workspace.root, PLANS), { recursive: true });
    writeFileSync(join(workspace.root, PLANS, `${name}.md`), `---\n${packages}: ${bump}\n---\n\n${message}\n`);
  };
  // git keeps no empty folder: a clean clone after a release has none.
  const plansLeft = () => (existsSync(join(workspace.root, PLANS)) ? readdirSync(join(workspace.root, PLANS)).filter((file) => file.endsWith('.md')) : []);
  const released: string = readJson('libs/client/package.json').version;
  afterAll(() => workspace.remove());

  it('refuses plans that ask for less than the gate finds, writing nothing', () => {
    rmSync(join(workspace.root, PLANS), { recursive: true, force: true });
    plan('probe-patch', 'patch', 'A fix.');
    // An optional field added to what the service answers: an additive change, a minor version at least.
    const document = readJson('libs/contract/openapi/openapi.json');
    document.components.schemas.Pet.properties.nickname = { type: 'string', maxLength: 40 };
    writeFileSync(join(workspace.root, 'libs/contract/openapi/openapi.json'), JSON.stringify(document, null, 2));

    const run = workspace.run('npm', 'run', '--silent', 'release');
    expect(run).toMatchObject({ status: 1, output: expect.stringContaining('a patch version is not enough for a minor change') });
    expect(readJson('libs/client/package.json').version).toBe(released);
    expect(readJson('libs/contract/package.json').version).toBe(released);
    workspace.git('checkout', '--quiet', '--', '.');
    workspace.git('clean', '--quiet', '-fd', '--', PLANS);
  });

  let next: string;

  /** The entry the release wrote at the top of a changelog: what comes before the previous release's. */
  const newEntry = (changelog: string) => read(changelog).split(`## ${released} (`)[0];

  it('writes the version once and carries it to both packages, the document, its released copy, the image tag and the changelogs', () => {
    // The major bump comes from a plan for the contract alone: the client's version moves with it all the same.
    plan('probe-contract', 'major', "The contract's probe: never committed.", 'contract');
    plan('probe-client', 'patch', "The client's probe: never committed.", 'client');
    plan('probe-both', 'minor', "The release spec's probe: never committed.");
    const run = workspace.run('npm', 'run', '--silent', 'release');
    expect(run).toMatchObject({ status: 0, output: expect.stringContaining('Released ') });

    next = readJson('libs/client/package.json').version;
    const [major] = released.split('.').map(Number);
    expect(next).toBe(`${major + 1}.0.0`);
    expect(readJson('libs/contract/package.json').version).toBe(next);
    // info.version comes from API_VERSION, which the rebuilt service read from the contract's package.json.
    expect(readJson('libs/contract/openapi/openapi.json').info.version).toBe(next);
    expect(read(`libs/contract/openapi/releases/${next}.json`)).toBe(read('libs/contract/openapi/openapi.json'));
    expect(imageTagOf(read(MANIFEST_IMAGES))).toBe(next);
    for (const changelog of ['libs/client/CHANGELOG.md', 'libs/contract/CHANGELOG.md']) {
      expect(read(changelog)).toMatch(new RegExp(`^#{1,2} ${next.replaceAll('.', '\\.')} \\(\\d{4}-\\d{2}-\\d{2}\\)[\\s\\S]*The release spec's probe`));
    }
    // Each package's entry holds the plans that name it, and only those.
    expect(newEntry('libs/contract/CHANGELOG.md')).toContain("The contract's probe");
    expect(newEntry('libs/contract/CHANGELOG.md')).not.toContain("The client's probe");
    expect(newEntry('libs/client/CHANGELOG.md')).toContain("The client's probe");
    expect(newEntry('libs/client/CHANGELOG.md')).not.toContain("The contract's probe");
    expect(plansLeft()).toEqual([]);
    // The gate now compares with the release just cut: nothing has changed since.
    expect(workspace.run('npm', 'run', '--silent', 'api-gate')).toMatchObject({ status: 0, output: expect.stringContaining(`releases/${next}.json (${next})`) });
  });

  it('then asks a version plan of each change to a released project, and of nothing else', () => {
    workspace.git('add', '--all');
    workspace.git('commit', '--quiet', '-m', `Release ${next}`);
    expect(workspace.run('npm', 'run', '--silent', 'plan-check')).toMatchObject({ status: 0 });

    // A test of the client changes nothing a consumer gets: no plan needed.
    writeFileSync(join(workspace.root, 'libs/client/src/lib/release-probe.spec.ts'), "it('runs', () => expect(true).toBe(true));\n");
    workspace.git('add', '--all');
    workspace.git('commit', '--quiet', '-m', 'A spec of the client');
    expect(workspace.run('npm', 'run', '--silent', 'plan-check')).toMatchObject({ status: 0 });

    // Its source does.
    writeFileSync(join(workspace.root, 'libs/client/src/lib/release-probe.ts'), 'export const PROBE = 1;\n');
    workspace.git('add', '--all');
    workspace.git('commit', '--quiet', '-m', 'A change to the client');
    expect(workspace.run('npm', 'run', '--silent', 'plan-check')).toMatchObject({ status: 1, output: expect.stringMatching(/do not feature in any version plan files:\s+- client/) });

    // A plan for the contract alone is not one for the client (Nx would count it for the whole fixed group).
    plan('probe-contract', 'patch', 'A probe of the contract.', 'contract');
    workspace.git('add', '--all');
    workspace.git('commit', '--quiet', '-m', "The contract's version plan");
    expect(workspace.run('npm', 'run', '--silent', 'plan-check')).toMatchObject({ status: 1, output: expect.stringContaining('client changed since the last release, but no pending version plan names it') });

    plan('probe-client', 'patch', 'A probe of the client.', 'client');
    workspace.git('add', '--all');
    workspace.git('commit', '--quiet', '-m', "The client's version plan");
    expect(workspace.run('npm', 'run', '--silent', 'plan-check')).toMatchObject({ status: 0, output: expect.stringContaining('"patch" in probe-client.md') });
  });
});
