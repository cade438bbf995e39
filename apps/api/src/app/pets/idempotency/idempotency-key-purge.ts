import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { PetStore } from '../pet.store';
import { IDEMPOTENCY_KEY_TTL_MS } from './idempotency-key';

const PURGE_EVERY_MS = 60 * 60 * 1000;
/** The first purge waits for the database, which may still be connecting when the app starts. */
const FIRST_PURGE_AFTER_MS = 60 * 1000;

/**
 * Deletes idempotency keys older than 24 hours, hourly. Lookups already ignore them; this only keeps the table
 * from growing. With several instances each purges, which is harmless.
 */
@Injectable()
export class IdempotencyKeyPurge implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(IdempotencyKeyPurge.name);
  private first?: NodeJS.Timeout;
  private timer?: NodeJS.Timeout;

  constructor(private readonly store: PetStore) {}

  onApplicationBootstrap(): void {
    this.first = setTimeout(() => void this.purge(), FIRST_PURGE_AFTER_MS).unref();
    this.timer = setInterval(() => void this.purge(), PURGE_EVERY_MS).unref();
  }

  onApplicationShutdown(): void {
    clearTimeout(this.first);
    clearInterval(this.timer);
  }

  async purge(now = Date.now()): Promise<void> {
    try {
      await this.store.purgeIdempotencyKeys(now - IDEMPOTENCY_KEY_TTL_MS);
    } catch (error) {
      this.logger.warn(`Could not purge expired idempotency keys: ${(error as Error).message}`);
    }
  }
}
