import { join } from 'node:path';
import { type PatroniCluster, patroniRuns, startPatroniCluster } from '@petstore/testing';
import { migrate, seedPostgres } from './seed';

/** A seeded database on a Patroni cluster, reached through its HAProxy as deploy/patroni deploys it. */
export interface ClusterDatabase {
  /** The service's DATABASE_URL. */
  url: string;
  stop(): Promise<void>;
}

/**
 * What synchronous replication costs (issue 44): the same database on a Patroni cluster of one member (a single
 * PostgreSQL) and of `members` (a primary whose commits wait for a synchronous standby), with deploy/patroni's
 * settings and HAProxy in front of both, so that the standby is the only difference. Migrated by the service, seeded
 * with `pets`. All members share this machine's cores, so a standby's replay competes with the service for CPU, which
 * separate machines would not.
 */
export async function startClusterDatabases(pets: number, members: number, dir: string): Promise<{ single: ClusterDatabase; replicated: ClusterDatabase }> {
  if (!patroniRuns('--replicated')) throw new Error('--replicated runs Patroni clusters: as root, with patroni, etcd and haproxy installed');
  const started: PatroniCluster[] = [];
  const start = async (name: string, size: number): Promise<ClusterDatabase> => {
    const cluster = await startPatroniCluster(size);
    started.push(cluster);
    const url = cluster.url(cluster.haproxyPort);
    await migrate(url, join(dir, `${name}-migrate.log`));
    await seedPostgres(url, pets);
    return { url, stop: () => cluster.stop() };
  };
  try {
    return { single: await start('single', 1), replicated: await start('replicated', members) };
  } catch (error) {
    await Promise.all(started.map((cluster) => cluster.stop()));
    throw error;
  }
}
