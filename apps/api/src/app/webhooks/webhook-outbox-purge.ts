import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { DatabaseConnection } from '../database/database-connection';
import { WebhookOutbox } from './outbox/webhook-outbox';

const PURGE_EVERY_MS = 60 * 60 * 1000;
/** Delivered and failed messages, and attempts, are kept this long for `npm run webhooks -- deliveries`. */
const KEEP_FINISHED_MS = 7 * 24 * 60 * 60 * 1000;
/** A failing database is reported once per this, not once per purge. */
const WARN_EVERY_MS = 60 * 60 * 1000;

/**
 * Deletes finished webhook messages and their attempts once they are 7 days old, hourly; a pending message is never
 * touched. With several instances each purges, which is harmless.
 */
@Injectable()
export class WebhookOutboxPurge implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(WebhookOutboxPurge.name);
  private timer?: NodeJS.Timeout;
  private warnedAt = -Infinity;

  constructor(
    private readonly outbox: WebhookOutbox,
    private readonly database: DatabaseConnection,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.purge(), PURGE_EVERY_MS).unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  async purge(now = Date.now()): Promise<void> {
    try {
      await this.database.run(() => this.outbox.purge(now - KEEP_FINISHED_MS));
    } catch (error) {
      if (Date.now() - this.warnedAt < WARN_EVERY_MS) return;
      this.warnedAt = Date.now();
      this.logger.warn(`Finished webhook messages not purged: ${(error as Error).message}`);
    }
  }
}
