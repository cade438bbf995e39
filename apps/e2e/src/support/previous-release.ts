import { existsSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { run } from './consumer-project';

const WORKSPACE = join(__dirname, '../../../..');
const RELEASES = 'libs/contract/openapi/releases';
const NX = join(WORKSPACE, 'node_modules/nx/dist/bin/nx.js');

/** `a` before `b`, as semantic versions without pre-releases. */
const earlier = (a: string, b: string) => {
  const [x, y] = [a, b].map((version) => version.split('.').map(Number));
  for (let part = 0; part < 3; part += 1) if (x[part] !== y[part]) return x[part] < y[part];
  return false;
};

/** The latest release before `version`: the highest of `releases/` below it. */
export function releaseBefore(version: string): string {
  const released = readdirSync(join(WORKSPACE, RELEASES)).map((file) => file.replace(/\.json$/, '')).filter((found) => earlier(found, version));
  const latest = released.sort((a, b) => (earlier(a, b) ? 1 : -1))[0];
  if (!latest) throw new Error(`no release before ${version} in ${RELEASES}`);
  return latest;
}

/**
 * The client of a past release as it was published: built by its own sources and build, from the commit that added
 * the release's document (the release commit; git tags are not kept), in a scratch worktree that shares this
 * checkout's node_modules. Returns the built package's folder and a function that removes the worktree.
 */
export async function builtReleasedClient(version: string, dir: string): Promise<{ folder: string; remove: () => Promise<void> }> {
  const git = (...args: string[]) => run('git', args, { cwd: WORKSPACE, timeoutMs: 120_000 });
  const commit = (await git('log', '-1', '--format=%H', '--diff-filter=A', '--', `${RELEASES}/${version}.json`)).trim();
  if (!commit) throw new Error(`no commit added ${RELEASES}/${version}.json: a clone too shallow? (git fetch --unshallow)`);
  const worktree = join(dir, `release-${version}`);
  await git('worktree', 'add', '--detach', worktree, commit);
  const remove = async () => {
    await git('worktree', 'remove', '--force', worktree).catch(() => undefined);
  };
  try {
    symlinkSync(join(WORKSPACE, 'node_modules'), join(worktree, 'node_modules'));
    await run(process.execPath, [NX, 'run', 'client:build', '--skip-nx-cache', '--output-style=static'], {
      cwd: worktree,
      env: { ...process.env, NX_DAEMON: 'false', CI: 'true', NX_NO_CLOUD: 'true' },
      timeoutMs: 240_000,
    });
    const folder = join(worktree, 'dist/libs/client');
    if (!existsSync(join(folder, 'package.json'))) throw new Error(`the build of ${commit} left no ${folder}/package.json`);
    return { folder, remove };
  } catch (error) {
    await remove();
    throw error;
  }
}
