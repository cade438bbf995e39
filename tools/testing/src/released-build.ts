import { execFile } from 'node:child_process';
import { existsSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { releaseOf } from './release-commits';

const WORKSPACE = join(__dirname, '../../..');
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

/**
 * A project of a past release as it was released: built by its own sources and build, from its release commit
 * (`releaseOf`), in a scratch worktree under `dir` that shares this checkout's node_modules. Returns the build's folder
 * (`main.js` for the service, the package for the client) and a function that removes the worktree.
 */
export async function builtRelease(version: string, project: ReleasedProject, dir: string): Promise<{ folder: string; remove: () => Promise<void> }> {
  const { commit } = releaseOf(version);
  const git = (...args: string[]) => run('git', args, WORKSPACE, 120_000);
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
