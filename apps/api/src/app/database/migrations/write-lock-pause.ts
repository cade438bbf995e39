import { setTimeout as sleep } from 'node:timers/promises';

/**
 * SQLite, between two batches of a fill: other processes' writers wait for the write lock in SQLite's busy handler,
 * which looks again every few to 100 ms, and batches back to back leave them gaps too short to land in (at 1M pets an
 * earlier release's creates waited up to 1.9 s). Letting the lock go for as long as a batch held it (since `began`,
 * from performance.now()) bounds their wait at a batch or two, for twice the fill's time.
 */
export const pauseAsLongAs = (began: number): Promise<void> => sleep(performance.now() - began);
