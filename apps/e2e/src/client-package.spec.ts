import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type NodeProcess, NPM_ENV, spawnService, stopNode, waitUntilLive } from '@petstore/testing';
import {
  CJS_PROGRAM,
  ESM_PROGRAM,
  expectDriven,
  run,
  runProgram,
  typeCheckConsumer,
} from './support/consumer-project';
import { TEST_KEY } from './support/test-key';

const WORKSPACE = join(__dirname, '../../..');
const DIST = join(WORKSPACE, 'dist/libs/client');

jest.setTimeout(120_000);

describe('the packed @petstore/client in a folder outside the workspace', () => {
  let dir: string;
  let service: NodeProcess;
  let packedFiles: string[];

  beforeAll(async () => {
    if (!existsSync(join(DIST, 'package.json'))) {
      throw new Error(`${DIST} is missing: run "CI=true NX_DAEMON=false npx nx build client" first`);
    }
    // realpath, so that paths in require.cache compare equal where the temporary folder is a symlink.
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'petstore-consumer-')));
    const database = `sqlite:${join(dir, 'db.sqlite')}`;
    const started = spawnService({ env: { API_KEYS: TEST_KEY, DATABASE_URL: database } }).then(async (sut) => {
      service = sut;
      await waitUntilLive(sut);
    });

    const installed = (async () => {
      const packOutput = await run('npm', ['pack', DIST, '--pack-destination', dir, '--json'], { cwd: dir, env: NPM_ENV });
      const [packed] = JSON.parse(packOutput) as { filename: string; files: { path: string }[] }[];
      packedFiles = packed.files.map((file) => file.path);
      await run('npm', ['init', '-y'], { cwd: dir, env: NPM_ENV });
      await run('npm', ['install', '--no-audit', '--no-fund', join(dir, packed.filename)], { cwd: dir, env: NPM_ENV });
    })();
    await Promise.all([started, installed]);
  });

  afterAll(async () => {
    if (service) await stopNode(service);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('holds only the build output, with no dependencies', () => {
    expect(packedFiles.sort()).toEqual(['CHANGELOG.md', 'README.md', 'index.cjs', 'index.d.cts', 'index.d.ts', 'index.js', 'package.json']);
    const manifest = JSON.parse(readFileSync(join(dir, 'node_modules/@petstore/client/package.json'), 'utf8'));
    expect(manifest).not.toHaveProperty('dependencies');
    expect(manifest).not.toHaveProperty('peerDependencies');
  });

  it('drives the live service from an ES module', async () => {
    expectDriven(await runProgram(dir, 'drive.mjs', ESM_PROGRAM, service.origin, TEST_KEY), 'esm');
  });

  it('drives the live service from CommonJS, loading no module but its own', async () => {
    const result = await runProgram(dir, 'drive.cjs', CJS_PROGRAM, service.origin, TEST_KEY);
    expectDriven(result, 'cjs');
    // The program itself and the client's one file: no @nestjs/*, class-validator, class-transformer, reflect-metadata, typeorm.
    expect(result.loaded).toEqual([join(dir, 'drive.cjs'), join(dir, 'node_modules/@petstore/client/index.cjs')]);
  });

  it.each<['module' | 'commonjs', string]>([
    ['module', 'index.d.ts'],
    ['commonjs', 'index.d.cts'],
  ])('type-checks a consumer with --strict as "type": "%s", against %s', async (type, typings) => {
    const trace = await typeCheckConsumer(dir, type);
    expect(trace).toContain(`'@petstore/client' was successfully resolved to '${join(dir, 'node_modules/@petstore/client', typings)}'`);
  });
});
