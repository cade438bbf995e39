import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { Repeating } from '../timing/repeating';
import { ThrottledWarning } from '../timing/throttled-warning';
import { IDEMPOTENCY_KEY_TTL_MS } from './idempotency/idempotency-key';
import { PetStore } from './pet.store';

const PURGE_EVERY_MS = 60 * 60 * 1000;
/** The first purge waits for the database, which may still be connecting when the app starts. */
const FIRST_PURGE_AFTER_MS = 60 * 1000;

/**
 * Deletes idempotency keys older than 24 hours, hourly. Lookups already ignore them; this only keeps the table
 * from growing. With several instances each purges, which is harmless.
 */
@Injectable()
export class IdempotencyKeyPurge implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly purges = new Repeating(PURGE_EVERY_MS, () => this.purge(), FIRST_PURGE_AFTER_MS);
  private readonly failures = new ThrottledWarning(new Logger(IdempotencyKeyPurge.name), PURGE_EVERY_MS);

  constructor(private readonly store: PetStore) {}

  onApplicationBootstrap(): void {
    this.purges.start();
  }

  onApplicationShutdown(): void {
    this.purges.stop();
  }

  async purge(now = Date.now()): Promise<void> {
    try {
      await this.store.purgeIdempotencyKeys(now - IDEMPOTENCY_KEY_TTL_MS);
    } catch (error) {
      this.failures.warn(`Could not purge expired idempotency keys: ${(error as Error).message}`);
    }
  }
}
