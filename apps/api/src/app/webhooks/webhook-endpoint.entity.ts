import { Column, Entity, Generated, PrimaryColumn } from 'typeorm';
import { safeInteger } from '../database/safe-integer';
import { eventList, type WebhookEventType } from './webhook-event';

/** An endpoint the operator registered (`npm run webhooks -- add`): where events go and the secret they are signed with. */
@Entity({ name: 'webhook_endpoints' })
export class WebhookEndpointEntity {
  @PrimaryColumn({ type: 'bigint', transformer: safeInteger })
  @Generated('increment')
  id!: number;

  @Column({ type: 'varchar', length: 2048 })
  url!: string;

  /** `whsec_` and base64: shown once, at registration, and never logged. */
  @Column({ type: 'varchar', length: 100 })
  secret!: string;

  /** Stored space-separated. */
  @Column({ type: 'varchar', length: 200, transformer: eventList })
  events!: WebhookEventType[];

  /** Random, in the webhook-id of each of its messages (see messageId). */
  @Column({ name: 'message_tag', type: 'varchar', length: 32 })
  messageTag!: string;

  @Column({ name: 'created_at', type: 'bigint', transformer: safeInteger })
  createdAt!: number;
}
