import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type NodeProcess, NPM_ENV, spawnService, stopNode, waitUntilLive } from '@petstore/testing';
import { CJS_PROGRAM, ESM_PROGRAM, expectDriven, run, runProgram } from './support/consumer-project';
import { TEST_KEY } from './support/test-key';

const WORKSPACE = join(__dirname, '../../..');
const VERSION: string = JSON.parse(readFileSync(join(WORKSPACE, 'libs/client/package.json'), 'utf8')).version;
const FIRST = '1.0.0';
// Nothing listens on the discard port: an install that reached for a registry would fail.
const NOWHERE = 'http://127.0.0.1:9';
/** The contract's rules and lists: its own surface, never the client's (docs/releasing.md, "Which packages are published"). */
const CONTRACT_ONLY = ['PET_FIELDS', 'PET_FILTERS', 'NAME_SEARCH_RULE', 'newPetProblems', 'newPetFieldProblems', 'describeProblem', 'API_VERSION'];
const EXPORTS_PROGRAM = `const client = await import('@petstore/client');
console.log(JSON.stringify(Object.keys(client).sort()));
`;

// Builds and packs take minutes on a shared machine; nothing here is timed.
jest.setTimeout(900_000);

// `npm run client -- <version>` (docs/releasing.md, "Getting the client of a release"): the first release's client and
// the current one, each packed from its release commit, installed from the tarball into a project outside the
// workspace with no registry to reach, and driving this service.
describe('npm run client: the client of a release, packed from its release commit', () => {
  let dir: string;
  let service: NodeProcess;
  const packed: Record<string, { output: string; tarball: string; consumer: string }> = {};

  /** Packs `version` with the command as a user types it, `from` a folder of their own; installs it into a new project. */
  async function packAndInstall(version: string, args: string[], from: string): Promise<void> {
    const output = await run('npm', ['--prefix', WORKSPACE, 'run', '--silent', 'client', '--', version, ...args], { cwd: from, env: NPM_ENV, timeoutMs: 600_000 });
    const tarball = /^Packed: (.+)$/m.exec(output)?.[1] ?? '';
    const consumer = join(dir, `consumer-${version}`);
    mkdirSync(consumer);
    await run('npm', ['init', '-y'], { cwd: consumer, env: NPM_ENV });
    const userconfig = join(dir, 'npmrc');
    writeFileSync(userconfig, '');
    const offline = { ...NPM_ENV, npm_config_userconfig: userconfig, npm_config_cache: join(dir, 'npm-cache'), npm_config_registry: NOWHERE, npm_config_update_notifier: 'false' };
    await run('npm', ['install', '--no-audit', '--no-fund', tarball], { cwd: consumer, env: offline, timeoutMs: 120_000 });
    packed[version] = { output, tarball, consumer };
  }

  beforeAll(async () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'petstore-client-of-release-')));
    const started = spawnService({ env: { API_KEYS: TEST_KEY, DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}` } }).then(async (sut) => {
      service = sut;
      await waitUntilLive(sut);
    });
    // One build after the other: two at once would only compete for the machine.
    const downloads = join(dir, 'downloads');
    mkdirSync(downloads);
    const builds = (async () => {
      await packAndInstall(FIRST, [], downloads);
      await packAndInstall(VERSION, ['--out', join(dir, 'tarballs')], WORKSPACE);
    })();
    await Promise.all([started, builds]);
  });

  afterAll(async () => {
    if (service) await stopNode(service);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('writes the tarball into the folder the command was typed in, and says how to install it', () => {
    expect(packed[FIRST].tarball).toBe(join(dir, 'downloads', `petstore-client-${FIRST}.tgz`));
    expect(packed[FIRST].output).toContain(`Install it with: npm install ./petstore-client-${FIRST}.tgz`);
  });

  it('writes it into the folder --out names', () => {
    expect(packed[VERSION].tarball).toBe(join(dir, 'tarballs', `petstore-client-${VERSION}.tgz`));
    expect(packed[VERSION].output).toContain(`Install it with: npm install ${packed[VERSION].tarball}`);
  });

  it.each([FIRST, VERSION])('installs %s from its tarball alone: no dependency, no registry', (version) => {
    const lock = JSON.parse(readFileSync(join(packed[version].consumer, 'package-lock.json'), 'utf8'));
    expect(Object.keys(lock.packages)).toEqual(['', 'node_modules/@petstore/client']);
    expect(lock.packages['node_modules/@petstore/client']).toMatchObject({ version, resolved: expect.stringMatching(new RegExp(`^file:.*petstore-client-${version.replaceAll('.', '\\.')}\\.tgz$`)) });
  });

  it.each([FIRST, VERSION])("%s exports the client's surface and none of the contract's rules", async (version) => {
    writeFileSync(join(packed[version].consumer, 'exports.mjs'), EXPORTS_PROGRAM);
    const names = JSON.parse(await run(process.execPath, ['exports.mjs'], { cwd: packed[version].consumer })) as string[];
    expect(names).toEqual(expect.arrayContaining(['PetstoreClient', 'PetStatus', 'NotFoundError', 'PetstoreApiError']));
    expect(names.filter((name) => CONTRACT_ONLY.includes(name))).toEqual([]);
  });

  it.each([FIRST, VERSION])('%s drives this service from an ES module and from CommonJS', async (version) => {
    expectDriven(await runProgram(packed[version].consumer, 'drive.mjs', ESM_PROGRAM, service.origin, TEST_KEY), 'esm');
    expectDriven(await runProgram(packed[version].consumer, 'drive.cjs', CJS_PROGRAM, service.origin, TEST_KEY), 'cjs');
  });
});
