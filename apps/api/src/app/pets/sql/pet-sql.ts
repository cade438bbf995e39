import type { Pet } from '@petstore/contract';
import type { IdempotencyClaim } from '../idempotency/idempotency-key';
import type { ClaimRow, StoredClaim } from '../idempotency/idempotency-row';
import type { PetToCreate } from '../pet-store-requests';
import type { PageDialect, PageStatement } from './pet-page-sql';

/** Runs one statement of a write; resolves to what the driver answers (rows, or for SQLite's INSERT its last rowid). */
export type Statement = (sql: string, parameters: unknown[]) => Promise<unknown>;

/** A write on the connection that writes, begun by PetSql.beginWrite and ended by the store with one of its ends. */
export interface PetWrite {
  statement: Statement;
  /** Commits; if that fails, rolls back and throws. Either way the write has ended. */
  commit(): Promise<void>;
  /** Undoes what the write did, if anything; never throws, so that the write's own error is the one reported. */
  rollback(): Promise<void>;
}

/**
 * What one database supplies to PetStore: its statements, and the few operations whose SQL or driver differs. The
 * store decides what runs when (batching, group commit, the create transaction's steps); these only run it.
 */
export interface PetSql {
  /** Pages read at once: as many as the connections that serve reads. */
  readConnections: number;
  /** How this database writes a page's statement. */
  pages: PageDialect;
  /** The pets with these ids that exist, in any order: one statement for the whole batch. */
  byIds(ids: number[]): Promise<Pet[]>;
  /** The page a statement reads. */
  page(statement: PageStatement): Promise<Pet[]>;
  /**
   * Begins a write of one batch of creates. `isolated`: in one transaction that no other writer can join between the
   * look at the batch's keys and their write (the batch has keys); else its statements may each commit alone.
   */
  beginWrite(isolated: boolean): Promise<PetWrite>;
  /** One INSERT of the pets: each with the id it was stored under, in their order. */
  insertPets(statement: Statement, pets: PetToCreate[]): Promise<Pet[]>;
  /** The claimIds of the keys another transaction holds; absent where an isolated write shuts every other writer out. */
  keysHeldElsewhere?(statement: Statement, claims: IdempotencyClaim[]): Promise<ReadonlySet<string>>;
  /** The rows of these keys that `idempotency_keys` holds, expired ones included. */
  selectClaims(statement: Statement, claims: IdempotencyClaim[]): Promise<ClaimRow[]>;
  /** Stores these rows, replacing an expired row of the same key: its 24 hours start again. */
  upsertClaims(statement: Statement, rows: StoredClaim[]): Promise<unknown>;
  /** Deletes the idempotency keys created at or before `before` (epoch ms). */
  purgeClaims(before: number): Promise<unknown>;
  /** Writes the search key of pets stored without it or with another, in the writer's turn; how many. */
  fillNameKeys(): Promise<number>;
}
