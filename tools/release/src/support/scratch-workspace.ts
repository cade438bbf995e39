import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NPM_ENV } from '@petstore/testing';

const WORKSPACE = join(__dirname, '../../../..');

export interface Ran {
  status: number | null;
  output: string;
}

/**
 * A git worktree of HEAD in a temporary folder, sharing the workspace's node_modules: a release can be cut, and
 * committed, there without touching the checkout. `run` runs a command in it; `remove` deletes it.
 */
export function scratchWorkspace() {
  const root = join(mkdtempSync(join(tmpdir(), 'release-')), 'workspace');
  execFileSync('git', ['worktree', 'add', '--quiet', '--detach', root, 'HEAD'], { cwd: WORKSPACE });
  symlinkSync(join(WORKSPACE, 'node_modules'), join(root, 'node_modules'));
  const env = { ...NPM_ENV, CI: 'true', NX_DAEMON: 'false', NX_NO_CLOUD: 'true', FORCE_COLOR: '0', NO_COLOR: '1' };
  return {
    root,
    run(command: string, ...args: string[]): Ran {
      const ran = spawnSync(command, args, { cwd: root, env, encoding: 'utf8', timeout: 600_000 });
      return { status: ran.status, output: `${ran.stdout}${ran.stderr}` };
    },
    git(...args: string[]): string {
      return execFileSync('git', ['-c', 'user.name=release spec', '-c', 'user.email=release-spec@localhost', ...args], { cwd: root, encoding: 'utf8' });
    },
    remove(): void {
      execFileSync('git', ['worktree', 'remove', '--force', root], { cwd: WORKSPACE });
      rmSync(join(root, '..'), { recursive: true, force: true });
    },
  };
}
