import { execFile } from 'node:child_process';
import { existsSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const WORKSPACE = join(__dirname, '../../..');
const RELEASES = 'libs/contract/openapi/releases';
const NX = join(WORKSPACE, 'node_modules/nx/dist/bin/nx.js');

/** Where each project's build leaves its output, under the checkout. */
const BUILD_OUTPUT = { api: 'dist/apps/api', client: 'dist/libs/client' } as const;
export type ReleasedProject = keyof typeof BUILD_OUTPUT;

async function run(command: string, args: string[], cwd: string, timeoutMs: number): Promise<string> {
  try {
    return (await promisify(execFile)(command, args, { cwd, timeout: timeoutMs, env: { ...process.env, NX_DAEMON: 'false', CI: 'true', NX_NO_CLOUD: 'true' } })).stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed:\n${stdout ?? ''}\n${stderr ?? ''}`, { cause: error });
  }
}

/** `a` before `b`, as semantic versions without pre-releases. */
const earlier = (a: string, b: string) => {
  const [x, y] = [a, b].map((version) => version.split('.').map(Number));
  for (let part = 0; part < 3; part += 1) if (x[part] !== y[part]) return x[part] < y[part];
  return false;
};

/** Every released version, from the documents kept in `releases/`, oldest first. */
export function releasedVersions(): string[] {
  const versions = readdirSync(join(WORKSPACE, RELEASES)).map((file) => file.replace(/\.json$/, ''));
  return versions.sort((a, b) => (earlier(a, b) ? -1 : 1));
}

/** The latest release before `version`: the highest of `releases/` below it. */
export function releaseBefore(version: string): string {
  const latest = releasedVersions().filter((found) => earlier(found, version)).at(-1);
  if (!latest) throw new Error(`no release before ${version} in ${RELEASES}`);
  return latest;
}

/**
 * A project of a past release as it was released: built by its own sources and build, from the commit that added the
 * release's document (the release commit; git tags are not kept), in a scratch worktree under `dir` that shares this
 * checkout's node_modules. Returns the build's folder (`main.js` for the service, the package for the client) and a
 * function that removes the worktree.
 */
export async function builtRelease(version: string, project: ReleasedProject, dir: string): Promise<{ folder: string; remove: () => Promise<void> }> {
  const git = (...args: string[]) => run('git', args, WORKSPACE, 120_000);
  const commit = (await git('log', '-1', '--format=%H', '--diff-filter=A', '--', `${RELEASES}/${version}.json`)).trim();
  if (!commit) throw new Error(`no commit added ${RELEASES}/${version}.json: a clone too shallow? (git fetch --unshallow)`);
  const worktree = join(dir, `release-${version}-${project}`);
  await git('worktree', 'add', '--detach', worktree, commit);
  const remove = async () => {
    await git('worktree', 'remove', '--force', worktree).catch(() => undefined);
  };
  try {
    symlinkSync(join(WORKSPACE, 'node_modules'), join(worktree, 'node_modules'));
    await run(process.execPath, [NX, 'run', `${project}:build`, '--skip-nx-cache', '--output-style=static'], worktree, 240_000);
    const folder = join(worktree, BUILD_OUTPUT[project]);
    if (!existsSync(join(folder, 'package.json')) && !existsSync(join(folder, 'main.js'))) throw new Error(`the build of ${commit} left nothing in ${folder}`);
    return { folder, remove };
  } catch (error) {
    await remove();
    throw error;
  }
}
