import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { DatabaseConnection } from '../database/database-connection';
import { Metrics } from '../metrics/metrics';
import { type OutboxDepth, WebhookOutbox } from './outbox/webhook-outbox';

/** One reading serves every gauge of a scrape, and scrapes that come close together. */
const READING_LASTS_MS = 1_000;

/**
 * How much the outbox holds, as gauges: the messages waiting to be delivered and the age of the oldest. Read when
 * Prometheus scrapes, one query for both; NaN while the database cannot say, so that the scrape still works.
 */
@Injectable()
export class WebhookOutboxDepth implements OnApplicationBootstrap {
  private reading?: { at: number; depth: Promise<OutboxDepth | undefined> };

  constructor(
    private readonly outbox: WebhookOutbox,
    private readonly database: DatabaseConnection,
    private readonly metrics: Metrics,
  ) {}

  onApplicationBootstrap(): void {
    this.metrics.gauge('petstore_webhook_outbox_messages', 'Webhook messages waiting to be delivered (not yet delivered or failed).', async () =>
      (await this.depth())?.pending ?? NaN,
    );
    this.metrics.gauge('petstore_webhook_outbox_oldest_age_seconds', 'Age of the oldest webhook message waiting to be delivered; 0 when none.', async () => {
      const read = await this.depth();
      if (!read) return NaN;
      return read.oldestCreatedAt === null ? 0 : Math.max(0, (Date.now() - read.oldestCreatedAt) / 1000);
    });
  }

  private depth(): Promise<OutboxDepth | undefined> {
    if (!this.reading || Date.now() - this.reading.at > READING_LASTS_MS) {
      this.reading = { at: Date.now(), depth: this.database.run(() => this.outbox.depth()).catch(() => undefined) };
    }
    return this.reading.depth;
  }
}
