import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { RELEASES } from '@petstore/testing';
import { releaseChangelog, releaseVersion } from 'nx/release';
import { MANIFEST_IMAGES, withImageTag } from './image-tag';
import { bumpOf, covers } from './version-bump';

// `npm run release [-- --dry-run]`: cuts the next version from the version plans (docs/releasing.md). Nx writes it
// into both packages (a fixed group), and the copy in releases/ of the document regenerated here is what the gate
// compares with from then on. Nothing is committed, tagged or published.

const WORKSPACE = join(__dirname, '../../..');
const DOCUMENT = 'libs/contract/openapi/openapi.json';

interface GateVerdict {
  released: string;
  change: 'major' | 'minor' | 'none';
}

/** The gate's verdict on the committed document against the latest release. */
function gateVerdict(): GateVerdict {
  const run = spawnSync('npm', ['run', '--silent', 'api-gate', '--', '--json'], { cwd: WORKSPACE, encoding: 'utf8' });
  // Exit 1 is a verdict too (a major change without a major version yet: this release may be that version).
  if (run.status !== 0 && run.status !== 1) throw new Error(`the gate could not compare the documents:\n${run.stderr}`);
  return JSON.parse(run.stdout) as GateVerdict;
}

const currentVersion = (): string => JSON.parse(readFileSync(join(WORKSPACE, 'libs/contract/package.json'), 'utf8')).version;

function say(line: string): void {
  process.stdout.write(`\n${line}\n`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { 'dry-run': { type: 'boolean', default: false }, verbose: { type: 'boolean', default: false } } });
  const [dryRun, verbose] = [values['dry-run'], values.verbose];
  const gate = gateVerdict();
  const current = currentVersion();

  const planned = await releaseVersion({ dryRun: true, verbose });
  const next = planned.workspaceVersion;
  if (!next) throw new Error('no version plan: nothing to release (npx nx release plan <patch|minor|major> -m "…")');
  const bump = bumpOf(current, next);
  say(`The gate finds a ${gate.change === 'none' ? 'document unchanged' : `${gate.change} change`} against ${gate.released}; the version plans ask for a ${bump} version: ${current} → ${next}.`);
  if (!covers(bump, gate.change)) {
    throw new Error(`a ${bump} version is not enough for a ${gate.change} change: add a plan (npx nx release plan ${gate.change} -m "…") and run again`);
  }
  if (dryRun) {
    await releaseChangelog({ versionData: planned.projectsVersionData, version: next, dryRun: true, verbose, releaseGraph: planned.releaseGraph });
    say(`Dry run: would write ${next} into both package.json files and the image tag of ${MANIFEST_IMAGES}, regenerate ${DOCUMENT}, keep it as ${RELEASES}/${next}.json, and write the changelogs above.`);
    return;
  }

  const versioned = await releaseVersion({ dryRun: false, verbose });
  // The service is rebuilt with the new package.json, so the document it writes has the new info.version.
  execFileSync('npm', ['run', '--silent', 'openapi'], { cwd: WORKSPACE, stdio: 'inherit' });
  const written = JSON.parse(readFileSync(join(WORKSPACE, DOCUMENT), 'utf8')).info.version;
  if (written !== next) throw new Error(`${DOCUMENT} says info.version ${written}, not ${next}`);
  const kept = `${RELEASES}/${next}.json`;
  copyFileSync(join(WORKSPACE, DOCUMENT), join(WORKSPACE, kept));
  const manifest = join(WORKSPACE, MANIFEST_IMAGES);
  writeFileSync(manifest, withImageTag(readFileSync(manifest, 'utf8'), next));
  await releaseChangelog({ versionData: versioned.projectsVersionData, version: next, dryRun: false, verbose, releaseGraph: versioned.releaseGraph });
  say(
    [
      `Released ${next}: both package.json files, ${DOCUMENT} (info.version), ${kept}, the image tag in ${MANIFEST_IMAGES}, each CHANGELOG.md from the plans that name its package; the plans are deleted.`,
      // No git tag: the commit that adds releases/<version>.json is the release's (npm run client -- --list).
      `Next: npm test, then commit everything as "Release ${next}" (that commit is the release: no tag); publish with npx nx release publish.`,
    ].join('\n'),
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`\nrelease refused: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
