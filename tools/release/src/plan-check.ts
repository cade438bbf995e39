import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';

// `npm run plan-check`: every change to a released project (the client, the contract) since the last release comes
// with a version plan, or is one that needs none (nx.json's `ignorePatternsForPlanCheck`: specs, configuration).
// We tag no release in git (`git.tag: false`), so the last release is the last commit that added a released
// document: `npm run release` writes it, and the release commit carries it.

const WORKSPACE = join(__dirname, '../../..');
const NX = join(WORKSPACE, 'node_modules/nx/dist/bin/nx.js');

export function lastReleaseCommit(): string {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: WORKSPACE, encoding: 'utf8' }).trim();
  const commit = git('log', '-1', '--format=%H', '--diff-filter=A', '--', 'libs/contract/openapi/releases/');
  if (commit) return commit;
  const shallow = git('rev-parse', '--is-shallow-repository') === 'true';
  throw new Error(`no commit adds a released document to libs/contract/openapi/releases/${shallow ? ': this clone is shallow (git fetch --unshallow)' : ''}`);
}

if (require.main === module) {
  try {
    const base = lastReleaseCommit();
    process.stdout.write(`Changes since the last release (${base.slice(0, 12)}, the commit that added its document):\n`);
    const run = spawnSync(process.execPath, [NX, 'release', 'plan:check', `--base=${base}`, '--head=HEAD'], { cwd: WORKSPACE, stdio: 'inherit', env: { ...process.env, NX_DAEMON: 'false' } });
    process.exitCode = run.status ?? 1;
  } catch (error) {
    process.stderr.write(`plan-check: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
