import type { DataSource, EntityManager } from 'typeorm';
import { perDatabase } from '../database/per-database';
import { writeFirst } from '../database/write-first';
import { WebhookAttemptEntity } from './webhook-attempt.entity';
import { WebhookEndpointEntity } from './webhook-endpoint.entity';
import { newMessageTag, type WebhookEventType } from './webhook-event';
import { generateWebhookSecret } from './webhook-signature';

/** How many attempts `deliveries` gives unless asked for another number. */
export const DEFAULT_DELIVERIES_LIMIT = 50;

/**
 * The `webhook_endpoints` table, and an endpoint's rows in the outbox and the attempts log: the only place with these
 * queries. Used by the webhook command (src/admin/webhooks.command.ts, `npm run webhooks`), which works on the configured database
 * directly; the service only reads endpoints, when it delivers.
 */
export class WebhookEndpointStore {
  constructor(private readonly dataSource: DataSource) {}

  /** Registers an endpoint with a new signing secret, which is returned here in the record and shown once by the command. */
  async add(url: string, events: readonly WebhookEventType[], now = Date.now()): Promise<WebhookEndpointEntity> {
    const record: Omit<WebhookEndpointEntity, 'id'> = {
      url,
      secret: generateWebhookSecret(),
      events: [...events],
      messageTag: newMessageTag(),
      createdAt: now,
    };
    const result = await this.dataSource.manager.insert(WebhookEndpointEntity, record);
    return { ...record, id: Number(result.identifiers[0].id) };
  }

  /** Every endpoint, ordered by id, secrets included: the caller decides what to show. */
  list(): Promise<WebhookEndpointEntity[]> {
    return this.dataSource.getRepository(WebhookEndpointEntity).find({ order: { id: 'ASC' } });
  }

  /**
   * Removes an endpoint with its messages, delivered or not, and its attempts, in one transaction; resolves to the
   * removed record, or null when there was none. The pets inserted from then on get no message for it.
   */
  remove(id: number): Promise<WebhookEndpointEntity | null> {
    return this.dataSource.transaction(async (manager) => {
      await excludeOutboxWriters(manager);
      const record = await manager.findOneBy(WebhookEndpointEntity, { id });
      if (!record) return null;
      await manager.delete(WebhookEndpointEntity, { id });
      await manager.createQueryBuilder().delete().from('webhook_messages').where('endpoint_id = :id', { id }).execute();
      await manager.delete(WebhookAttemptEntity, { endpointId: id });
      return record;
    });
  }

  /** An endpoint and its latest attempts, newest first, at most `limit`; null when there is no such endpoint. */
  async deliveries(endpointId: number, limit = DEFAULT_DELIVERIES_LIMIT): Promise<{ endpoint: WebhookEndpointEntity; attempts: WebhookAttemptEntity[] } | null> {
    const endpoint = await this.dataSource.getRepository(WebhookEndpointEntity).findOneBy({ id: endpointId });
    if (!endpoint) return null;
    const attempts = await this.dataSource.getRepository(WebhookAttemptEntity).find({ where: { endpointId }, order: { id: 'DESC' }, take: limit });
    return { endpoint, attempts };
  }
}

/**
 * On PostgreSQL, waits for the transactions that are writing to the outbox (the pets trigger's, the deliveries') to
 * end, and holds off new ones until this one commits. Without it, a pet inserted while the endpoint is removed reads
 * the endpoint from a snapshot taken before the removal and leaves it a message after the delete of its messages.
 * A blocked trigger reads the endpoints again once it has the lock, and finds the endpoint gone (checked on
 * PostgreSQL 15). SQLite runs one write transaction at a time already: this one takes the lock first (writeFirst).
 */
async function excludeOutboxWriters(manager: EntityManager): Promise<void> {
  await perDatabase(manager.connection, {
    postgres: () => manager.query('LOCK TABLE webhook_messages IN SHARE ROW EXCLUSIVE MODE'),
    sqlite: () => writeFirst(manager, 'webhook_messages'),
  })();
}
