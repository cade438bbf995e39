import { setTimeout as sleep } from 'node:timers/promises';
import type { DataSource, QueryRunner } from 'typeorm';
import { perDatabase } from '../per-database';

/**
 * One batch of a fill, in its turn. On SQLite, which has one write lock, it is then let go for as long as the batch
 * held it: other processes' writers wait for it in SQLite's busy handler, which looks again every few to 100 ms, and
 * batches back to back would leave them gaps too short to land in (docs/operations.md, "Upgrades, release by
 * release"). PostgreSQL locks rows, and needs no pause.
 */
export async function inTurn<T>(on: DataSource | QueryRunner, batch: () => Promise<T>): Promise<T> {
  const began = performance.now();
  const result = await batch();
  if (perDatabase(on, { sqlite: true, postgres: false })) await sleep(performance.now() - began);
  return result;
}
