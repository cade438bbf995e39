import { Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../config/app-config';
import { GroupCommit } from '../database/batching/group-commit';
import { DatabaseConnection } from '../database/database-connection';
import { Metrics } from '../metrics/metrics';
import { type AttemptRecord, type ClaimedMessage, type DispatchEndpoint, WebhookOutbox } from './outbox/webhook-outbox';
import { recordOf } from './webhook-attempt';
import { messageId } from './webhook-event';
import type { DeliveryResult } from './webhook-sender';

/**
 * Records what attempts came to, on the configured retry schedule: counted in the metrics, a message failed for good
 * logged, and the records of attempts that end together written in one transaction (a GroupCommit).
 */
@Injectable()
export class WebhookAttemptRecorder {
  private readonly logger = new Logger(WebhookAttemptRecorder.name);
  private readonly schedule: readonly number[];
  private readonly records = new GroupCommit<AttemptRecord, void>(async (batch) => {
    await this.database.run(() => this.outbox.record(batch));
    return batch.map(() => undefined);
  });

  constructor(
    config: ConfigService<AppConfig, true>,
    private readonly outbox: WebhookOutbox,
    private readonly database: DatabaseConnection,
    private readonly metrics: Metrics,
  ) {
    this.schedule = config.get('webhooks', { infer: true }).retryScheduleSeconds;
  }

  /** Resolves once the attempt's record is committed; rejects when the database failed to take it. */
  async record(endpoint: DispatchEndpoint, message: ClaimedMessage, attemptedAt: number, result: DeliveryResult): Promise<void> {
    const record = recordOf(message, attemptedAt, result, this.schedule);
    this.metrics.webhookAttempts.inc({ outcome: record.outcome });
    this.metrics.webhookAttemptDuration.observe(result.durationMs / 1000);
    if (record.outcome !== 'retrying') this.metrics.webhookDeliveries.inc({ outcome: record.outcome });
    if (record.outcome === 'failed') {
      this.logger.warn(`Webhook ${messageId(endpoint.messageTag, message.id)} to endpoint ${endpoint.id} failed after ${record.attempt} attempt(s): ${record.error}`);
    }
    await this.records.add(record);
  }
}
