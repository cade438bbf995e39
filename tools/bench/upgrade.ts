import { join } from 'node:path';
import { builtRelease, createPostgresDatabase, type UpgradeTrial, upgradeTrial } from '@petstore/testing';
import { table } from './report';

/** What `--upgrade` starts from unless told: the oldest release, before 1.1's search keys (the largest migration). */
export const OLDEST_UPGRADED = '1.0.0';
/** Requests per second during the upgrade: half creates, half lists, as a modest production load. */
const RATE = 100;
/** Longest wait for an instance to be ready; a migration at 10M pets would take longer (see docs/operations.md). */
const READY_WITHIN_MS = 30 * 60_000;

export interface UpgradeOptions {
  from: string;
  pets: number;
  databases: Array<'sqlite' | 'postgres'>;
  postgresUrl: string;
}

export interface UpgradeRun extends UpgradeTrial {
  database: 'sqlite' | 'postgres';
  from: string;
  pets: number;
}

/**
 * A rolling upgrade at `pets` pets on each database: release `from`, built from its release commit, serves creates and
 * lists while this build starts beside it and migrates (upgradeTrial). Prints its figures; a run with a failed answer,
 * a create lost or a pet not found by name afterwards is a failure.
 */
export async function upgradeBench(options: UpgradeOptions, dir: string): Promise<{ upgrades: UpgradeRun[]; failed: boolean }> {
  const release = await builtRelease(options.from, 'api', dir);
  const upgrades: UpgradeRun[] = [];
  try {
    for (const database of options.databases) {
      const postgres = database === 'postgres' ? await createPostgresDatabase(options.postgresUrl, 'bench_upgrade') : undefined;
      try {
        process.stdout.write(`${database}: ${options.pets.toLocaleString('en-US')} pets from ${options.from}…\n`);
        const trial = await upgradeTrial({
          database: postgres ? { kind: 'postgres', url: postgres.url } : { kind: 'sqlite', file: join(dir, 'upgrade.sqlite') },
          from: join(release.folder, 'main.js'),
          pets: options.pets,
          rate: RATE,
          readyWithinMs: READY_WITHIN_MS,
          logDir: dir,
        });
        upgrades.push({ database, from: options.from, pets: options.pets, ...trial });
      } finally {
        await postgres?.drop();
      }
    }
  } finally {
    await release.remove();
  }
  const mb = (bytes: number) => (bytes / 1e6).toFixed(0);
  const s = (ms: number) => (ms / 1000).toFixed(1);
  process.stdout.write(
    `\nupgrade from ${options.from} at ${options.pets.toLocaleString('en-US')} pets, ${RATE} requests/s (half creates) to the earlier release, then to both\n` +
      `${table(
        ['database', 'live (s)', 'ready (s)', 'creates', 'p50 (ms)', 'p99 (ms)', 'slowest (ms)', '> 1 s', 'failed', 'lost', 'not found', 'MB before', 'MB after'],
        upgrades.map((u) => [
          u.database,
          s(u.liveMs),
          s(u.readyMs),
          String(u.creates.sent),
          u.creates.p50Ms.toFixed(0),
          u.creates.p99Ms.toFixed(0),
          u.creates.maxMs.toFixed(0),
          String(u.creates.overOneSecond),
          String(u.failures.length),
          String(u.stored.missing + u.stored.duplicates),
          String(u.unfound.length),
          mb(u.bytes.before),
          mb(u.bytes.after),
        ]),
      )}\n`,
  );
  for (const u of upgrades) for (const failure of u.failures.slice(0, 5)) process.stderr.write(`${u.database}: ${failure}\n`);
  const failed = upgrades.some((u) => u.failures.length > 0 || u.stored.missing + u.stored.duplicates > 0 || u.unfound.length > 0);
  return { upgrades, failed };
}
