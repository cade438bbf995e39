import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Release } from './release-commits';

const WORKSPACE = join(__dirname, '../../..');
const NX = join(WORKSPACE, 'node_modules/nx/dist/bin/nx.js');
/** Where the client's build leaves the package, in any release's tree. */
const CLIENT_PACKAGE = 'dist/libs/client';

/** Runs a command to its end; on failure, an error with its output (a build's log is long, and only then worth showing). */
function run(command: string, args: string[], cwd: string): string {
  const ran = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', CI: 'true' } });
  if (ran.status === 0) return ran.stdout;
  const how = ran.error?.message ?? (ran.signal ? `stopped by ${ran.signal}` : `exit code ${ran.status}`);
  throw new Error(`${command} ${args.join(' ')} failed (${how}):\n${ran.stdout ?? ''}${ran.stderr ?? ''}`);
}

/**
 * @petstore/client as released: built by the release commit's own sources and build, in a scratch git worktree of
 * that commit (so nothing in this checkout, changed or not, gets in) sharing this checkout's node_modules, then packed
 * by `npm pack` into `destination`. Returns the tarball's path; the worktree is removed, whatever happened.
 */
export function packClientOf(release: Release, destination: string): string {
  const scratch = mkdtempSync(join(tmpdir(), `petstore-client-${release.version}-`));
  const worktree = join(scratch, 'workspace');
  run('git', ['worktree', 'add', '--quiet', '--detach', worktree, release.commit], WORKSPACE);
  try {
    symlinkSync(join(WORKSPACE, 'node_modules'), join(worktree, 'node_modules'));
    run(process.execPath, [NX, 'run', 'client:build', '--skip-nx-cache', '--output-style=static'], worktree);
    const folder = join(worktree, CLIENT_PACKAGE);
    const { name, version } = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { name: string; version: string };
    if (name !== '@petstore/client' || version !== release.version) {
      throw new Error(`the build of ${release.commit} made ${name}@${version}, not @petstore/client@${release.version}`);
    }
    mkdirSync(destination, { recursive: true });
    const packed = JSON.parse(run('npm', ['pack', folder, '--pack-destination', destination, '--ignore-scripts', '--json'], scratch)) as Array<{ filename: string }>;
    return join(destination, packed[0].filename);
  } finally {
    spawnSync('git', ['worktree', 'remove', '--force', worktree], { cwd: WORKSPACE });
    rmSync(scratch, { recursive: true, force: true });
  }
}
