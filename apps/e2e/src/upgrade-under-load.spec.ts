import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtRelease, releaseBefore, type UpgradeTrial, upgradeTrial } from '@petstore/testing';
import { admin, POSTGRES_ADMIN_URL } from './support/cluster';

// docs/operations.md, "Upgrading and rolling back": a rolling upgrade under load, from the previous release and from
// the oldest one (1.0.0, before the search keys), each built from its release commit, on a database of 200,000 pets.
// The million-pet run, with its figures, is `npm run bench -- --upgrade`.

const WORKSPACE = join(__dirname, '../../..');
const VERSION: string = JSON.parse(readFileSync(join(WORKSPACE, 'libs/contract/package.json'), 'utf8')).version;
/** The oldest release an upgrade starts from: before 1.1's search keys, the largest change of the schema since. */
const OLDEST_UPGRADED = '1.0.0';
const FROM = [...new Set([releaseBefore(VERSION), OLDEST_UPGRADED])];
const PETS = 200_000;

// Generous: two releases are built, and each trial seeds, migrates and checks 200,000 pets on a shared machine.
jest.setTimeout(900_000);

describe('an upgrade under load, as a rolling deploy runs it', () => {
  let dir: string;
  const builds = new Map<string, string>();
  const removals: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'petstore-upgrade-'));
    // One after the other: two builds at once would take both cores.
    for (const version of FROM) {
      const { folder, remove } = await builtRelease(version, 'api', dir);
      builds.set(version, join(folder, 'main.js'));
      removals.push(remove);
    }
  });

  afterAll(async () => {
    for (const remove of removals) await remove();
    rmSync(dir, { recursive: true, force: true });
  });

  /** What the trial must show, whatever the database and the release upgraded from. */
  const expectUpgraded = (trial: UpgradeTrial) => {
    process.stdout.write(`${JSON.stringify({ ...trial, unfound: trial.unfound.slice(0, 5), failures: trial.failures.slice(0, 5) })}\n`);
    // Every answer as expected: no 5xx (none is documented for an upgrade), no create refused.
    expect(trial.failures).toEqual([]);
    expect(trial.creates.acknowledged).toBe(trial.creates.sent);
    expect(trial.creates.sent).toBeGreaterThan(0);
    expect(trial.stored).toEqual({ missing: 0, duplicates: 0 });
    // Those the earlier release created after the new build migrated too: its backfill keys them.
    expect(trial.unfound).toEqual([]);
  };

  describe.each(FROM)('from %s', (version) => {
    it('on SQLite: the new build migrates beside the earlier one, every create is stored once and found by name', async () => {
      const file = join(mkdtempSync(join(dir, 'sqlite-')), 'petstore.sqlite');
      expectUpgraded(await upgradeTrial({ database: { kind: 'sqlite', file }, from: builds.get(version) as string, pets: PETS, rate: 100, readyWithinMs: 300_000, logDir: dir }));
    });

    it('on PostgreSQL: the same', async () => {
      const name = `petstore_upgrade_${process.pid}_${version.replace(/\./g, '_')}`;
      await admin((client) => client.query(`CREATE DATABASE ${name}`));
      try {
        const url = Object.assign(new URL(POSTGRES_ADMIN_URL), { pathname: `/${name}` }).href;
        expectUpgraded(await upgradeTrial({ database: { kind: 'postgres', url }, from: builds.get(version) as string, pets: PETS, rate: 100, readyWithinMs: 300_000, logDir: dir }));
      } finally {
        await admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
      }
    });
  });
});
