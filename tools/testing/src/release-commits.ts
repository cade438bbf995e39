import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { compare, lt, valid } from 'semver';

// We tag nothing in git: a release is found by its document. `npm run release` copies the OpenAPI document to
// releases/<version>.json and the release commit adds it, so the commit that added that file is the release commit.

/** Where each released OpenAPI document is kept, from the repository's root. */
export const RELEASES = 'libs/contract/openapi/releases';
const WORKSPACE = join(__dirname, '../../..');

export interface Release {
  version: string;
  commit: string;
  /** The commit's date, YYYY-MM-DD. */
  date: string;
  subject: string;
}

const git = (repo: string, ...args: string[]) => execFileSync('git', args, { cwd: repo, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

/**
 * The commits a shallow clone's history stops at. git shows each as adding every file it holds, so a document it
 * "adds" may have been released long before: such a commit is never taken for a release commit.
 */
function shallowBoundaries(repo: string): Set<string> {
  const file = git(repo, 'rev-parse', '--git-path', 'shallow');
  const path = isAbsolute(file) ? file : join(repo, file);
  return new Set(existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean) : []);
}

/** The release commits of HEAD's history, newest commit first, and whether the clone is shallow. */
export function releaseHistory(repo = WORKSPACE): { releases: Release[]; shallow: boolean } {
  const boundaries = shallowBoundaries(repo);
  const log = git(repo, 'log', '--diff-filter=A', '--no-renames', '--format=%x01%H%x00%cs%x00%s', '--name-only', '--', `${RELEASES}/`);
  const releases: Release[] = [];
  for (const entry of log.split('\x01').filter(Boolean)) {
    const [header, ...files] = entry.split('\n').filter(Boolean);
    const [commit, date, subject] = header.split('\x00');
    if (boundaries.has(commit)) continue;
    for (const file of files) {
      const version = file.slice(RELEASES.length + 1).replace(/\.json$/, '');
      // A document added again later (removed in between) belongs to the newest commit that added it.
      if (valid(version) && !releases.some((release) => release.version === version)) releases.push({ version, commit, date, subject });
    }
  }
  return { releases, shallow: boundaries.size > 0 };
}

/** Every release, oldest version first. */
export const releasesByVersion = (repo = WORKSPACE): Release[] => [...releaseHistory(repo).releases].sort((a, b) => compare(a.version, b.version));

const UNSHALLOW = 'this clone is shallow, and its history may not reach the release (git fetch --unshallow)';

/** The release of `version`, or an error that says why there is none and which there are. */
export function releaseOf(version: string, repo = WORKSPACE): Release {
  if (!valid(version)) throw new Error(`"${version}" is not a version (major.minor.patch, e.g. 1.0.0)`);
  const { releases, shallow } = releaseHistory(repo);
  const found = releases.find((release) => release.version === version);
  if (found) return found;
  const known = releases.map((release) => release.version).sort(compare);
  const listed = known.length ? `the releases found are ${known.join(', ')} (npm run client -- --list)` : 'no release was found';
  if (shallow) throw new Error(`no commit of this clone adds ${RELEASES}/${version}.json: ${UNSHALLOW}; ${listed}`);
  if (existsSync(join(repo, RELEASES, `${version}.json`))) {
    throw new Error(`${RELEASES}/${version}.json is not committed: the release is cut but not committed yet (commit it as "Release ${version}")`);
  }
  throw new Error(`no release ${version}: ${listed}`);
}

/**
 * Every released version, oldest first: the documents in releases/, so a version whose release commit a shallow clone
 * lacks is still known (and `releaseOf` says why it cannot be found).
 */
export function releasedVersions(repo = WORKSPACE): string[] {
  const versions = readdirSync(join(repo, RELEASES)).map((file) => file.replace(/\.json$/, ''));
  return versions.filter((version) => valid(version)).sort(compare);
}

/** The latest release before `version`. */
export function releaseBefore(version: string, repo = WORKSPACE): string {
  const latest = releasedVersions(repo).filter((found) => lt(found, version)).at(-1);
  if (!latest) throw new Error(`no release before ${version} in ${RELEASES}`);
  return latest;
}

/** The newest release commit in HEAD's history: where the changes of the next release start. */
export function lastReleaseCommit(repo = WORKSPACE): string {
  const { releases, shallow } = releaseHistory(repo);
  if (releases.length) return releases[0].commit;
  throw new Error(`no commit adds a released document to ${RELEASES}/${shallow ? `: ${UNSHALLOW}` : ''}`);
}
