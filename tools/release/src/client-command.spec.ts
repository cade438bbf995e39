import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { NPM_ENV, RELEASES, releasedVersions } from '@petstore/testing';

// `npm run client` as a person runs it, for what needs no build: the list, and the refusals. Packing a release, and
// installing what it packs, is apps/e2e/src/client-of-release.spec.ts.

const WORKSPACE = join(__dirname, '../../..');

function client(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const ran = spawnSync('npm', ['run', '--silent', 'client', '--', ...args], { cwd: WORKSPACE, env: NPM_ENV, encoding: 'utf8', timeout: 120_000 });
  return { status: ran.status, stdout: ran.stdout, stderr: ran.stderr };
}

jest.setTimeout(120_000);

describe('npm run client', () => {
  it('lists every release in releases/ with the commit that added its document', () => {
    const listed = client('--list');
    expect(listed.status).toBe(0);
    for (const version of releasedVersions()) {
      const commit = execFileSync('git', ['log', '-1', '--format=%H', '--diff-filter=A', '--', `${RELEASES}/${version}.json`], { cwd: WORKSPACE, encoding: 'utf8' }).trim();
      expect(listed.stdout).toMatch(new RegExp(`^  ${version.replaceAll('.', '\\.')} +${commit.slice(0, 12)}  \\d{4}-\\d{2}-\\d{2}  `, 'm'));
    }
  });

  it('names the known releases when asked for another', () => {
    expect(client('0.0.1')).toMatchObject({ status: 1, stderr: expect.stringMatching(/client: no release 0\.0\.1: the releases found are 1\.0\.0, .*\(npm run client -- --list\)/) });
  });

  it('refuses what is not a version, and a call with neither a version nor --list', () => {
    expect(client('latest')).toMatchObject({ status: 1, stderr: expect.stringContaining('"latest" is not a version') });
    expect(client()).toMatchObject({ status: 2, stderr: expect.stringContaining('Usage: npm run client -- [options] [version]') });
  });
});
