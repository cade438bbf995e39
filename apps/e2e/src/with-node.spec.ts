import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const WORKSPACE = join(__dirname, '../../..');
const WITH_NODE = join(WORKSPACE, 'tools/with-node.sh');
const PINNED = readFileSync(join(WORKSPACE, '.nvmrc'), 'utf8').trim();
const ENGINES = (JSON.parse(readFileSync(join(WORKSPACE, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;

/** Runs tools/with-node.sh with `PATH`; what the command printed, what the wrapper said, and the child's environment. */
async function withNode(path: string, env: Record<string, string> = {}) {
  const { stdout, stderr } = await promisify(execFile)(
    WITH_NODE,
    ['node', '-p', 'JSON.stringify({ version: process.version, pinned: process.env.PETSTORE_PINNED_NODE ?? null, nodedir: process.env.npm_config_nodedir ?? null })'],
    { env: { PATH: path, HOME: process.env.HOME ?? '', ...env } },
  );
  return { child: JSON.parse(stdout) as { version: string; pinned: string | null; nodedir: string | null }, said: stderr };
}

// The npm scripts' runner (README, Quick start): this machine's Node.js when it satisfies engines, else the pinned one.
describe('tools/with-node.sh', () => {
  let stubs: string;
  let cache: string;
  /** Where the wrapper finds the pinned Node.js: this test's own node, laid out as tools/install-node.sh leaves one. */
  let pinnedHome: string;
  beforeAll(() => {
    // A Node.js 20 as many machines have: only its version matters before the wrapper decides.
    stubs = mkdtempSync(join(tmpdir(), 'petstore-old-node-'));
    writeFileSync(join(stubs, 'node'), '#!/bin/sh\necho v20.20.2\n');
    chmodSync(join(stubs, 'node'), 0o755);
    cache = mkdtempSync(join(tmpdir(), 'petstore-node-cache-'));
    pinnedHome = join(cache, PINNED);
    mkdirSync(join(pinnedHome, 'bin'), { recursive: true });
    symlinkSync(process.execPath, join(pinnedHome, 'bin/node'));
  });
  afterAll(() => {
    rmSync(stubs, { recursive: true, force: true });
    rmSync(cache, { recursive: true, force: true });
  });

  it('runs the command on the Node.js on PATH, saying nothing, when it satisfies engines', async () => {
    const { child, said } = await withNode(`${dirname(process.execPath)}:/usr/bin:/bin`);
    expect(child).toEqual({ version: process.version, pinned: null, nodedir: null });
    expect(said).toBe('');
  });

  it('runs the command on the pinned Node.js, with its headers for native addons, and says so in one line, when the one on PATH is older', async () => {
    const { child, said } = await withNode(`${stubs}:/usr/bin:/bin`, { PETSTORE_NODE_CACHE: cache });
    expect(child).toEqual({ version: process.version, pinned: pinnedHome, nodedir: pinnedHome });
    expect(said.trim().split('\n')).toEqual([
      `Node.js v20.20.2 does not satisfy engines (${ENGINES}): running on the pinned Node.js v${PINNED} (.nvmrc) from ${pinnedHome}`,
    ]);
  });

  it("stays silent in an npm pre-script, whose main script says it", async () => {
    const { child, said } = await withNode(`${stubs}:/usr/bin:/bin`, { PETSTORE_NODE_CACHE: cache, npm_lifecycle_event: 'prestart' });
    expect(child.pinned).toBe(pinnedHome);
    expect(said).toBe('');
  });
});
