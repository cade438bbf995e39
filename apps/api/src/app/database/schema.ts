import { ApiKeyEntity } from '../auth/api-key.entity';
import { migrations } from './migrations';

/**
 * What TypeORM is told about the schema, on either database: the migrations own it (oldest first, never
 * `synchronize`), and only `api_keys` is mapped to a class; the stores of pets and idempotency keys write their SQL.
 */
export const SCHEMA_OPTIONS = { entities: [ApiKeyEntity], migrations, migrationsRun: false, synchronize: false };
