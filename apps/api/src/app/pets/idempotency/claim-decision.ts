import type { Pet } from '@petstore/contract';
import { claimId, IDEMPOTENCY_KEY_TTL_MS, type IdempotencyClaim } from './idempotency-key';
import type { StoredClaim } from './idempotency-row';

/** What a create with an Idempotency-Key did, or found instead. */
export type IdempotentInsert =
  | { outcome: 'created'; pet: Pet }
  /** The key answered a create within the last 24 hours. */
  | { outcome: 'stored'; fingerprint: string; petId: number }
  /** Another create with this key is still running, in this process or another. */
  | { outcome: 'in_use' };

/** What a batch does with one create: insert it, or answer it without a write. */
export type Decision = 'create' | Exclude<IdempotentInsert, { outcome: 'created' }>;

/**
 * The rule every database keeps for the keys of a batch, decided inside its transaction. Per create, in order: a key
 * that another transaction holds is in use; a key that answered a create within 24 hours is answered from there; a
 * key that an earlier create of the batch claims is in use, as that create is still running; anything else is created.
 */
export function decide<Create extends { claim?: IdempotencyClaim }>(
  batch: readonly Create[],
  stored: StoredClaim[],
  heldElsewhere: ReadonlySet<string> = new Set(),
): Decision[] {
  const storedById = new Map(stored.map((row) => [claimId(row), row]));
  const claimed = new Set<string>();
  return batch.map(({ claim }): Decision => {
    if (!claim) return 'create';
    const id = claimId(claim);
    if (heldElsewhere.has(id)) return { outcome: 'in_use' };
    const found = storedById.get(id);
    if (found && found.createdAt > claim.createdAt - IDEMPOTENCY_KEY_TTL_MS) {
      return { outcome: 'stored', fingerprint: found.fingerprint, petId: found.petId };
    }
    if (claimed.has(id)) return { outcome: 'in_use' };
    claimed.add(id);
    return 'create';
  });
}
