import type { Pet } from '@petstore/contract';
import { decide, type Decision } from '../idempotency/claim-decision';
import type { IdempotencyClaim } from '../idempotency/idempotency-key';
import { type ClaimRow, type StoredClaim, storedClaim, toStoredClaim } from '../idempotency/idempotency-row';
import type { IdempotentInsert } from '../pet.store';
import type { PendingCreate } from './create-group-commit';

/** Runs one statement; resolves to what the driver answers (rows, or for SQLite's INSERT the rowid of its last row). */
export type Statement = (sql: string, parameters: unknown[]) => Promise<unknown>;

/** What a database writes a batch of creates with: its transaction and its statements; writeCreates orders the steps. */
export interface CreateSql {
  /** Runs a statement outside any transaction of ours: a batch without keys is one statement. */
  statement: Statement;
  /**
   * Runs `work` in one transaction, given that transaction's statements, committed once it resolves and rolled back
   * if it throws. No other writer may store one of the batch's keys between the lookup and the write inside it.
   */
  transaction<T>(work: (statement: Statement) => Promise<T>): Promise<T>;
  /** One INSERT of the creates' pets: the pets in the order of the creates, each with the id it was stored under. */
  insertPets(statement: Statement, creates: PendingCreate[]): Promise<Pet[]>;
  /** The claimIds of the keys another transaction holds; absent where the transaction itself shuts every other writer out. */
  keysHeldElsewhere?(statement: Statement, claims: IdempotencyClaim[]): Promise<ReadonlySet<string>>;
  /** The rows of these keys that `idempotency_keys` holds, expired ones included. */
  selectClaims(statement: Statement, claims: IdempotencyClaim[]): Promise<ClaimRow[]>;
  /** Stores these rows, replacing an expired row of the same key: its 24 hours start again. */
  upsertClaims(statement: Statement, rows: StoredClaim[]): Promise<unknown>;
}

/**
 * Writes one batch in one transaction and answers each create, in order; the steps are the same on every database,
 * the statements each one's. A batch without keys is one INSERT. One with keys, in one transaction: which keys another
 * transaction holds, which are stored, the decision for each create (decide(): in-batch repeats included), the pets
 * to create inserted, their keys stored with their ids, and each create answered with its pet or its decision.
 */
export async function writeCreates(sql: CreateSql, batch: PendingCreate[]): Promise<IdempotentInsert[]> {
  const claims = batch.flatMap(({ claim }) => (claim ? [claim] : []));
  if (claims.length === 0) return answers(batch.map(() => 'create'), await sql.insertPets(sql.statement, batch));

  return sql.transaction(async (statement) => {
    const heldElsewhere = await sql.keysHeldElsewhere?.(statement, claims);
    const stored = (await sql.selectClaims(statement, claims)).map(toStoredClaim);
    const decisions = decide(batch, stored, heldElsewhere);
    const creates = batch.filter((_, index) => decisions[index] === 'create');
    const pets = creates.length > 0 ? await sql.insertPets(statement, creates) : [];
    const claimed = creates.flatMap(({ claim }, index) => (claim ? [storedClaim(claim, pets[index].id)] : []));
    if (claimed.length > 0) await sql.upsertClaims(statement, claimed);
    return answers(decisions, pets);
  });
}

/** The batch's answers in its order: each decision, with the created pets in place of 'create', in their order. */
export function answers(decisions: Decision[], created: Pet[]): IdempotentInsert[] {
  let next = 0;
  return decisions.map((decision) => (decision === 'create' ? { outcome: 'created', pet: created[next++] } : decision));
}
