import { Injectable } from '@nestjs/common';
import { HOURLY_PURGE, PeriodicTask } from '../timing/periodic-task';
import { IDEMPOTENCY_KEY_TTL_MS } from './idempotency/idempotency-key';
import { PetStore } from './pet.store';

/**
 * Deletes idempotency keys older than 24 hours, hourly (first a minute after the start, when the database has
 * connected). Lookups already ignore them; this only keeps the table from growing. With several instances each
 * purges, which is harmless.
 */
@Injectable()
export class IdempotencyKeyPurge extends PeriodicTask {
  constructor(private readonly store: PetStore) {
    super(IdempotencyKeyPurge.name, HOURLY_PURGE, 'Could not purge expired idempotency keys');
  }

  protected run(now: number): Promise<void> {
    return this.store.purgeIdempotencyKeys(now - IDEMPOTENCY_KEY_TTL_MS);
  }
}
