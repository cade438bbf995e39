import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { lastReleaseCommit } from '@petstore/testing';
import { pendingPlans, projectsWithoutPlan } from './plan-coverage';

// `npm run plan-check`: every change to a released project (the client, the contract) since the last release comes
// with a version plan that names it, or is one that needs none (nx.json's `ignorePatternsForPlanCheck`: specs,
// configuration). We tag nothing in git, so the last release is the last release commit (`lastReleaseCommit`).

const WORKSPACE = join(__dirname, '../../..');
const NX = join(WORKSPACE, 'node_modules/nx/dist/bin/nx.js');

/** Nx's check first (its report names the plans), then ours: a plan that names one package does not cover the other. */
function planCheck(): number {
  const base = lastReleaseCommit();
  process.stdout.write(`Changes since the last release (${base.slice(0, 12)}, the commit that added its document):\n`);
  const run = spawnSync(process.execPath, [NX, 'release', 'plan:check', `--base=${base}`, '--head=HEAD'], { cwd: WORKSPACE, stdio: 'inherit', env: { ...process.env, NX_DAEMON: 'false' } });
  if (run.status !== 0) return run.status ?? 1;

  const changed = execFileSync('git', ['diff', '--name-only', '--no-renames', base, 'HEAD'], { cwd: WORKSPACE, encoding: 'utf8' }).split('\n').filter(Boolean);
  const ignored: string[] = JSON.parse(readFileSync(join(WORKSPACE, 'nx.json'), 'utf8')).release.versionPlans.ignorePatternsForPlanCheck ?? [];
  const uncovered = projectsWithoutPlan(changed, pendingPlans(join(WORKSPACE, '.nx/version-plans')), ignored);
  if (!uncovered.length) return 0;
  process.stderr.write(
    `\nplan-check: ${uncovered.join(' and ')} changed since the last release, but no pending version plan names ${uncovered.length > 1 ? 'them' : 'it'}. ` +
      `Add a plan whose front matter names ${uncovered.map((project) => `${project}: <bump>`).join(', ')} (or __default__: <bump> for both packages): docs/releasing.md, "Between releases".\n`,
  );
  return 1;
}

if (require.main === module) {
  try {
    process.exitCode = planCheck();
  } catch (error) {
    process.stderr.write(`plan-check: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
