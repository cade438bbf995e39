import type { PetEntity } from './pet.entity';

/** What a create with an Idempotency-Key did, or found instead. */
export type IdempotentInsert =
  | { outcome: 'created'; pet: PetEntity }
  /** The key answered a create within the last 24 hours. */
  | { outcome: 'stored'; fingerprint: string; petId: number }
  /**
   * Another create with this key is still running: on another instance (PostgreSQL), or in this process (SQLite: earlier
   * in the same batch, or in the batch being committed).
   */
  | { outcome: 'in_use' };
