import { Injectable } from '@nestjs/common';
import { DatabaseConnection } from '../database/database-connection';
import { HOURLY_PURGE, PeriodicTask } from '../timing/periodic-task';
import { WebhookOutbox } from './outbox/webhook-outbox';

/** Delivered and failed messages, and attempts, are kept this long for `npm run webhooks -- deliveries`. */
export const KEEP_FINISHED_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Deletes finished webhook messages and their attempts once they are 7 days old, hourly (first a minute after the
 * start, when the database has connected); a pending message is never touched. With several instances each purges,
 * which is harmless.
 */
@Injectable()
export class WebhookOutboxPurge extends PeriodicTask {
  constructor(
    private readonly outbox: WebhookOutbox,
    private readonly database: DatabaseConnection,
  ) {
    super(WebhookOutboxPurge.name, HOURLY_PURGE, 'Finished webhook messages not purged');
  }

  protected async run(now: number): Promise<void> {
    await this.database.run(() => this.outbox.purge(now - KEEP_FINISHED_MS));
  }
}
