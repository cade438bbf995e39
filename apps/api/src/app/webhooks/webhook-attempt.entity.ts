import { Column, Entity, Generated, PrimaryColumn } from 'typeorm';
import { safeInteger } from '../database/safe-integer';

/** One delivery attempt of one message, as `npm run webhooks -- deliveries <id>` shows it. */
@Entity({ name: 'webhook_attempts' })
export class WebhookAttemptEntity {
  @PrimaryColumn({ type: 'bigint', transformer: safeInteger })
  @Generated('increment')
  id!: number;

  @Column({ name: 'endpoint_id', type: 'bigint', transformer: safeInteger })
  endpointId!: number;

  /** The message, whose `webhook-id` is `msg_<endpoint's message tag>_<messageId>`. */
  @Column({ name: 'message_id', type: 'bigint', transformer: safeInteger })
  messageId!: number;

  /** 1 for the first attempt of the message. */
  @Column({ type: 'integer' })
  attempt!: number;

  @Column({ name: 'attempted_at', type: 'bigint', transformer: safeInteger })
  attemptedAt!: number;

  /** `delivered` (a 2xx), `retrying` (failed, another attempt is scheduled) or `failed` (no attempt is left). */
  @Column({ type: 'varchar', length: 10 })
  outcome!: 'delivered' | 'retrying' | 'failed';

  @Column({ name: 'status_code', type: 'integer', nullable: true })
  statusCode!: number | null;

  /** A short description (`HTTP 500`, `timeout after 10000 ms`, …); never the response body. */
  @Column({ type: 'varchar', length: 200, nullable: true })
  error!: string | null;

  @Column({ name: 'duration_ms', type: 'integer' })
  durationMs!: number;
}
