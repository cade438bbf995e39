import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastReleaseCommit, RELEASES, releaseBefore, releasedVersions, releaseHistory, releaseOf, releasesByVersion } from './release-commits';

// Release commits are found in git's history, so the specs make one: a scratch repository with releases cut in it, and
// shallow clones of it.

const scratch = mkdtempSync(join(tmpdir(), 'release-commits-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const git = (repo: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=spec', '-c', 'user.email=spec@localhost', '-c', 'init.defaultBranch=main', ...args], { cwd: repo, encoding: 'utf8' }).trim();

/** A repository whose commits, oldest first, each write the files given; returns it and each commit's hash. */
function repository(name: string, commits: Array<Record<string, string>>): { repo: string; hashes: string[] } {
  const repo = join(scratch, name);
  mkdirSync(repo);
  git(repo, 'init', '--quiet');
  const hashes = commits.map((files, index) => {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(repo, path, '..'), { recursive: true });
      writeFileSync(join(repo, path), text);
    }
    git(repo, 'add', '--all');
    git(repo, 'commit', '--quiet', '--allow-empty', '-m', `commit ${index}`);
    return git(repo, 'rev-parse', 'HEAD');
  });
  return { repo, hashes };
}

const released = (version: string) => ({ [`${RELEASES}/${version}.json`]: `{"info":{"version":"${version}"}}` });

describe('release commits, found by the document each release added', () => {
  // 1.10.0 is cut after 1.2.0 and sorts after it (not as text); 1.0.0's document is edited later, by mistake.
  const { repo, hashes } = repository('history', [
    { 'README.md': 'start' },
    released('1.0.0'),
    { 'src.ts': 'a change' },
    released('1.2.0'),
    { [`${RELEASES}/1.0.0.json`]: '{"edited":true}' },
    { ...released('1.10.0'), [`${RELEASES}/notes.txt`]: 'not a release' },
    { 'src.ts': 'after the last release' },
  ]);

  it('lists every release with the commit that added its document, by version', () => {
    expect(releasesByVersion(repo).map(({ version, commit, subject }) => ({ version, commit, subject }))).toEqual([
      { version: '1.0.0', commit: hashes[1], subject: 'commit 1' },
      { version: '1.2.0', commit: hashes[3], subject: 'commit 3' },
      { version: '1.10.0', commit: hashes[5], subject: 'commit 5' },
    ]);
    expect(releaseHistory(repo).shallow).toBe(false);
  });

  it("finds a version's release commit, not a later one that edited its document", () => {
    expect(releaseOf('1.0.0', repo)).toMatchObject({ version: '1.0.0', commit: hashes[1], date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
    expect(releaseOf('1.10.0', repo).commit).toBe(hashes[5]);
  });

  it('lists the released versions by their documents, and finds the one before a version', () => {
    expect(releasedVersions(repo)).toEqual(['1.0.0', '1.2.0', '1.10.0']);
    expect(releaseBefore('1.10.0', repo)).toBe('1.2.0');
    expect(releaseBefore('2.0.0', repo)).toBe('1.10.0');
    expect(() => releaseBefore('1.0.0', repo)).toThrow(`no release before 1.0.0 in ${RELEASES}`);
  });

  it('takes the newest release commit for where the next release starts', () => {
    expect(lastReleaseCommit(repo)).toBe(hashes[5]);
  });

  it('names the releases there are when asked for another', () => {
    expect(() => releaseOf('1.1.0', repo)).toThrow('no release 1.1.0: the releases found are 1.0.0, 1.2.0, 1.10.0 (npm run client -- --list)');
  });

  it('refuses what is not a version', () => {
    expect(() => releaseOf('v1.0', repo)).toThrow('"v1.0" is not a version');
  });

  it('says a release cut but not committed is not committed yet', () => {
    writeFileSync(join(repo, RELEASES, '2.0.0.json'), '{}');
    try {
      expect(() => releaseOf('2.0.0', repo)).toThrow(`${RELEASES}/2.0.0.json is not committed`);
    } finally {
      rmSync(join(repo, RELEASES, '2.0.0.json'));
    }
  });

  describe('in a shallow clone', () => {
    // --depth 3 keeps commits 4 to 6; commit 4, where the history stops, seems to add every file it holds.
    const clone = join(scratch, 'shallow');
    beforeAll(() => git(scratch, 'clone', '--quiet', '--depth', '3', `file://${repo}`, clone));

    it('finds the releases its history holds', () => {
      expect(releaseOf('1.10.0', clone).commit).toBe(hashes[5]);
      expect(lastReleaseCommit(clone)).toBe(hashes[5]);
    });

    it('takes no release for one the cut history seems to add, and says how to fetch the rest', () => {
      expect(releaseHistory(clone)).toMatchObject({ shallow: true, releases: [expect.objectContaining({ version: '1.10.0' })] });
      // The documents still name every release, even one whose commit the clone lacks (releaseOf says why).
      expect(releaseBefore('1.2.0', clone)).toBe('1.0.0');
      expect(() => releaseOf('1.0.0', clone)).toThrow(/no commit of this clone adds .*1\.0\.0\.json: this clone is shallow.*\(git fetch --unshallow\); the releases found are 1\.10\.0/);
    });

    it('says so when no release commit is left at all', () => {
      const shallower = join(scratch, 'shallower');
      git(scratch, 'clone', '--quiet', '--depth', '1', `file://${repo}`, shallower);
      expect(() => lastReleaseCommit(shallower)).toThrow(/no commit adds a released document .*git fetch --unshallow/);
    });
  });
});
