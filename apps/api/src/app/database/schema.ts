import { migrations } from './migrations';

/**
 * What TypeORM is told about the schema, on either database: the migrations own it (oldest first, never
 * `synchronize`). The entities are each feature's own (TypeOrmModule.forFeature in its module; an admin command names
 * the ones it uses); the stores of pets, idempotency keys and the webhook outbox write their SQL.
 */
export const SCHEMA_OPTIONS = {
  migrations,
  migrationsRun: false,
  synchronize: false,
};
