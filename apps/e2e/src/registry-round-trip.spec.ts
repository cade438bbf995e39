import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type NodeProcess, NPM_ENV, releaseBefore, spawnService, stopNode, waitUntilLive } from '@petstore/testing';
import { CJS_PROGRAM, compileAndRunStrict, ESM_PROGRAM, expectDriven, run, runProgram } from './support/consumer-project';
import { TEST_KEY } from './support/test-key';
import { type LocalRegistry, startVerdaccio } from './support/verdaccio';

const WORKSPACE = join(__dirname, '../../..');
const DIST = join(WORKSPACE, 'dist/libs/client');
const NX = join(WORKSPACE, 'node_modules/nx/dist/bin/nx.js');
const VERSION: string = JSON.parse(readFileSync(join(WORKSPACE, 'libs/client/package.json'), 'utf8')).version;
/** The release before this version, whose published client must keep working against this service. */
const PREVIOUS = releaseBefore(VERSION);

// Generous: publishing runs Nx (and the client's build, from its cache) and installs run npm, on a shared machine.
jest.setTimeout(300_000);

describe('@petstore/client published by `nx release publish` to a local registry, installed from it', () => {
  let dir: string;
  let registry: LocalRegistry;
  let service: NodeProcess;
  let consumer: string;
  /** A project that installed the previous release's client from the registry. */
  let previousConsumer: string;
  let publishOutput: string;
  /** npm as the consumer's machine runs it: the registry's npmrc only, a cache of its own, none of the workspace's npm_config_*. */
  let registryEnv: NodeJS.ProcessEnv;

  beforeAll(async () => {
    // spawnService throws if the service is not built.
    if (!existsSync(join(DIST, 'package.json'))) {
      throw new Error(`${join(DIST, 'package.json')} is missing: run "CI=true NX_DAEMON=false npx nx run-many -t build" first`);
    }
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'petstore-registry-')));
    const started = spawnService({ env: { API_KEYS: TEST_KEY, DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}` } }).then(async (sut) => {
      service = sut;
      await waitUntilLive(sut);
    });
    const published = (async () => {
      registry = await startVerdaccio(join(dir, 'registry'));
      // `nx release publish` runs `npm publish` in dist/libs/client (the client's nx-release-publish target); npm reads
      // the token from the temporary npmrc, never from ~/.npmrc. It publishes what `npm test` built: without
      // --excludeTaskDependencies the target's build could rewrite dist/libs/client under client-package.spec.ts.
      registryEnv = { ...NPM_ENV, npm_config_userconfig: registry.userconfig, npm_config_cache: join(dir, 'npm-cache') };
      const publish = ['release', 'publish', '--registry', registry.url, '--excludeTaskDependencies', '--output-style=static'];
      publishOutput = await run(process.execPath, [NX, ...publish], {
        cwd: WORKSPACE,
        env: { ...registryEnv, NX_DAEMON: 'false', CI: 'true' },
        timeoutMs: 240_000,
      });
      consumer = join(dir, 'consumer');
      mkdirSync(consumer);
      await run('npm', ['init', '-y'], { cwd: consumer, env: NPM_ENV });
      await run('npm', ['install', '--no-audit', '--no-fund', `@petstore/client@${VERSION}`], {
        cwd: consumer,
        env: registryEnv,
        timeoutMs: 120_000,
      });
      // The previous release's client, packed by `npm run client` from its release commit as anyone can, and published
      // beside this one (under a tag of its own: npm gives `latest` to the highest version only), as a user who has
      // not upgraded installs it.
      const packed = await run('npm', ['run', '--silent', 'client', '--', PREVIOUS, '--out', join(dir, 'previous')], { cwd: WORKSPACE, env: NPM_ENV, timeoutMs: 600_000 });
      const tarball = /^Packed: (.+)$/m.exec(packed)?.[1] ?? '';
      await run('npm', ['publish', tarball, '--registry', registry.url, '--tag', 'previous'], { cwd: dir, env: registryEnv, timeoutMs: 120_000 });
      previousConsumer = join(dir, 'previous-consumer');
      mkdirSync(previousConsumer);
      await run('npm', ['init', '-y'], { cwd: previousConsumer, env: NPM_ENV });
      await run('npm', ['install', '--no-audit', '--no-fund', `@petstore/client@${PREVIOUS}`], { cwd: previousConsumer, env: registryEnv, timeoutMs: 120_000 });
    })();
    await Promise.all([started, published]);
  });

  afterAll(async () => {
    if (service) await stopNode(service);
    await registry?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('publishes the client at the workspace version, and the contract not at all (it is bundled into the client)', async () => {
    expect(publishOutput).toContain(`@petstore/client@${VERSION}`);
    const view = await run('npm', ['view', '@petstore/client', 'version', '--json'], { cwd: dir, env: registryEnv });
    expect(JSON.parse(view)).toBe(VERSION);
    await expect(run('npm', ['view', '@petstore/contract'], { cwd: dir, env: registryEnv })).rejects.toThrow(/E404/);
  });

  it('installs from the local registry only, with no dependencies', () => {
    const lock = JSON.parse(readFileSync(join(consumer, 'package-lock.json'), 'utf8'));
    expect(Object.keys(lock.packages)).toEqual(['', 'node_modules/@petstore/client']);
    expect(lock.packages['node_modules/@petstore/client']).toMatchObject({
      version: VERSION,
      resolved: `${registry.url}@petstore/client/-/client-${VERSION}.tgz`,
    });
  });

  it('drives the live service from an ES module', async () => {
    expectDriven(await runProgram(consumer, 'drive.mjs', ESM_PROGRAM, service.origin, TEST_KEY), 'esm');
  });

  it('drives the live service from CommonJS', async () => {
    expectDriven(await runProgram(consumer, 'drive.cjs', CJS_PROGRAM, service.origin, TEST_KEY), 'cjs');
  });

  it('creates and lists a pet from TypeScript compiled with --strict', async () => {
    const { created, listed } = await compileAndRunStrict(consumer, service.origin, TEST_KEY);
    expect(created).toMatchObject({ id: expect.any(Number), name: 'typed' });
    expect(listed).toContain(created.id);
  });

  it(`keeps the previous release's client working: ${PREVIOUS}, as published, drives this service (${VERSION})`, async () => {
    const lock = JSON.parse(readFileSync(join(previousConsumer, 'package-lock.json'), 'utf8'));
    expect(lock.packages['node_modules/@petstore/client']).toMatchObject({ version: PREVIOUS, resolved: `${registry.url}@petstore/client/-/client-${PREVIOUS}.tgz` });
    expectDriven(await runProgram(previousConsumer, 'drive.mjs', ESM_PROGRAM, service.origin, TEST_KEY), 'esm');
    expectDriven(await runProgram(previousConsumer, 'drive.cjs', CJS_PROGRAM, service.origin, TEST_KEY), 'cjs');
  });
});
