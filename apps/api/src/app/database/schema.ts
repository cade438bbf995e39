import { ApiKeyEntity } from '../auth/api-key.entity';
import { migrations } from './migrations';

/** The tables TypeORM maps to classes: the stores of pets and idempotency keys write their own SQL. */
export const ENTITIES = [ApiKeyEntity];

/** Every migration, oldest first: they own the schema on both databases. */
export const MIGRATIONS = migrations;
