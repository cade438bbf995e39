import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { NPM_ENV } from '@petstore/testing';

// CI's check that every change to a released project since the last release comes with a version plan
// (docs/releasing.md). release-process.spec.ts shows it refusing a change without one, on a scratch worktree.
it('npm run plan-check passes on this repository', () => {
  const run = spawnSync('npm', ['run', '--silent', 'plan-check'], { cwd: join(__dirname, '../../..'), env: { ...NPM_ENV, NX_DAEMON: 'false', NO_COLOR: '1' }, encoding: 'utf8', timeout: 300_000 });
  expect({ status: run.status, output: `${run.stdout}${run.stderr}` }).toMatchObject({ status: 0, output: expect.stringContaining('All touched projects have, or do not require, version plans.') });
}, 300_000);
