import type { DataSource, EntityManager } from 'typeorm';
import { perDatabase } from '../database/per-database';
import { writeFirst } from '../database/write-first';
import { WebhookAttemptEntity } from './webhook-attempt.entity';
import { WebhookEndpointEntity } from './webhook-endpoint.entity';
import { newMessageTag, type WebhookEventType } from './webhook-event';
import { generateWebhookSecret } from './webhook-signature';

/** Attempts `deliveries` gives by default. */
export const DEFAULT_DELIVERIES_LIMIT = 50;

/**
 * The only place with queries on endpoints and their outbox and attempt rows. `npm run webhooks` uses it on the
 * database directly; the service only reads endpoints, when it delivers.
 */
export class WebhookEndpointStore {
  constructor(private readonly dataSource: DataSource) {}

  /** The new signing secret is returned in the record, for the command to show once. */
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

  /** Secrets included: the caller decides what to show. */
  list(): Promise<WebhookEndpointEntity[]> {
    return this.dataSource.getRepository(WebhookEndpointEntity).find({ order: { id: 'ASC' } });
  }

  /** With its messages and attempts, in one transaction; null when there was none. Later pets get no message for it. */
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

  /** Latest attempts first; null when there is no such endpoint. */
  async deliveries(endpointId: number, limit = DEFAULT_DELIVERIES_LIMIT): Promise<{ endpoint: WebhookEndpointEntity; attempts: WebhookAttemptEntity[] } | null> {
    const endpoint = await this.dataSource.getRepository(WebhookEndpointEntity).findOneBy({ id: endpointId });
    if (!endpoint) return null;
    const attempts = await this.dataSource.getRepository(WebhookAttemptEntity).find({ where: { endpointId }, order: { id: 'DESC' }, take: limit });
    return { endpoint, attempts };
  }
}

/**
 * On PostgreSQL, holds off the outbox's writers until this transaction commits: otherwise a pet inserted during the
 * removal reads the endpoint from an older snapshot and leaves it a message after the delete. A blocked trigger reads
 * the endpoints again once it has the lock. SQLite runs one write transaction at a time: this one takes the lock first.
 */
async function excludeOutboxWriters(manager: EntityManager): Promise<void> {
  await perDatabase(manager.connection, {
    postgres: () => manager.query('LOCK TABLE webhook_messages IN SHARE ROW EXCLUSIVE MODE'),
    sqlite: () => writeFirst(manager, 'webhook_messages'),
  })();
}
