import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { DatabaseConnection } from '../database/database-connection';
import { Repeating } from '../timing/repeating';
import { ThrottledWarning } from '../timing/throttled-warning';
import { WebhookOutbox } from './outbox/webhook-outbox';

const PURGE_EVERY_MS = 60 * 60 * 1000;
/** The first purge waits for the database, which may still be connecting when the app starts. */
const FIRST_PURGE_AFTER_MS = 60 * 1000;
/** Delivered and failed messages, and attempts, are kept this long for `npm run webhooks -- deliveries`. */
const KEEP_FINISHED_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Deletes finished webhook messages and their attempts once they are 7 days old, hourly; a pending message is never
 * touched. With several instances each purges, which is harmless.
 */
@Injectable()
export class WebhookOutboxPurge implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly purges = new Repeating(PURGE_EVERY_MS, () => this.purge(), FIRST_PURGE_AFTER_MS);
  private readonly failures = new ThrottledWarning(new Logger(WebhookOutboxPurge.name), PURGE_EVERY_MS);

  constructor(
    private readonly outbox: WebhookOutbox,
    private readonly database: DatabaseConnection,
  ) {}

  onApplicationBootstrap(): void {
    this.purges.start();
  }

  onApplicationShutdown(): void {
    this.purges.stop();
  }

  async purge(now = Date.now()): Promise<void> {
    try {
      await this.database.run(() => this.outbox.purge(now - KEEP_FINISHED_MS));
    } catch (error) {
      this.failures.warn(`Finished webhook messages not purged: ${(error as Error).message}`);
    }
  }
}
