import { ApiKeyEntity } from '../auth/api-key.entity';
import { WebhookAttemptEntity } from '../webhooks/webhook-attempt.entity';
import { WebhookEndpointEntity } from '../webhooks/webhook-endpoint.entity';
import { migrations } from './migrations';

/**
 * What TypeORM is told about the schema, on either database: the migrations own it (oldest first, never
 * `synchronize`). The tables the admin commands manage are mapped to classes; the stores of pets, idempotency keys
 * and the webhook outbox write their SQL.
 */
export const SCHEMA_OPTIONS = {
  entities: [ApiKeyEntity, WebhookEndpointEntity, WebhookAttemptEntity],
  migrations,
  migrationsRun: false,
  synchronize: false,
};
