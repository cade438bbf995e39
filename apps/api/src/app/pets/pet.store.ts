import type { Pet } from '@petstore/contract';
import { BatchedLookup } from '../database/batching/batched-lookup';
import { GroupCommit } from '../database/batching/group-commit';
import { SharedReads } from '../database/batching/shared-reads';
import type { DatabaseConnection } from '../database/database-connection';
import type { Metrics } from '../metrics/metrics';
import { decide, type Decision, type IdempotentInsert } from './idempotency/claim-decision';
import { claimId, type IdempotencyClaim } from './idempotency/idempotency-key';
import { storedClaim, toStoredClaim } from './idempotency/idempotency-row';
import { type PageStatement, pageStatementOf, statementKey } from './sql/pet-page-sql';
import type { PetSql, PetWrite } from './sql/pet-sql';
import type { PendingCreate, PetPageQuery, PetToCreate } from './pet-store-requests';

// The store's answer to an idempotent create is idempotency's decision: callers of the store import it from here.
export type { IdempotentInsert };

/**
 * Lookups by id running at once; the ids asked for meanwhile are looked up together once it is done. One lets batches
 * grow largest (docs/performance.md, "Checking a change"). A lookup by id is one primary-key read per id, never slow, so
 * no request waits behind a slow one here.
 */
const LOOKUPS_BY_ID_IN_FLIGHT = 1;

/**
 * Where pets and their idempotency keys are kept, on either database: the database supplies its statements (PetSql),
 * and this decides what runs when. Reads by id are batched, each answer keyed by its pet's id. Reads of pages take
 * turns for the connections that serve them, and requests for the same statement with the same values share a turn
 * (SharedReads), so a slow search costs only the requests that sent it. Creates that arrive together are committed
 * together (GroupCommit): one transaction and one WAL flush per batch, each caller answered once it is committed.
 * Every operation answers 503 when the database cannot serve (DatabaseConnection).
 */
export class PetStore {
  private readonly byId: BatchedLookup<number, number, Pet>;
  private readonly pages: SharedReads<Pet[]>;
  private readonly pageStatement: (query: PetPageQuery) => PageStatement;
  private readonly creates = new GroupCommit<PendingCreate, IdempotentInsert>((batch) => this.commit(batch));
  /** The keys of the batch being committed by this process. */
  private committing = new Set<string>();

  constructor(
    private readonly database: DatabaseConnection,
    private readonly metrics: Metrics,
    private readonly sql: PetSql,
  ) {
    const answered = (lookup: 'by_id' | 'page') => (requests: number) => metrics.lookupBatchSize[lookup].observe(requests);
    this.byId = new BatchedLookup(
      (id) => id,
      async (ids) => new Map((await this.read('find_by_ids', () => sql.byIds(ids))).map((pet) => [pet.id, pet])),
      LOOKUPS_BY_ID_IN_FLIGHT,
      answered('by_id'),
    );
    this.pages = new SharedReads(sql.readConnections, answered('page'));
    this.pageStatement = pageStatementOf(sql.pages);
    metrics.gauge('petstore_group_commit_waiting', 'Creates gathered for the next group commit while one is being written.', () => this.creates.waitingCount);
  }

  // Refused before they queue for a lookup: behind one that hangs on a silent database they would wait its deadline.
  async findPage(query: PetPageQuery): Promise<Pet[]> {
    this.database.assertServing();
    const statement = this.pageStatement(query);
    return this.pages.read(statementKey(statement), () => this.read('find_page', () => this.sql.page(statement)));
  }

  async findById(id: number): Promise<Pet | undefined> {
    this.database.assertServing();
    return this.byId.load(id);
  }

  /** Resolves once the pet is committed and synced. */
  async insert(pet: PetToCreate): Promise<Pet> {
    const result = await this.database.runWrite(() => this.creates.add({ pet }));
    // Stryker disable next-line ConditionalExpression,StringLiteral: unreachable, as decide() creates every create without a key
    if (result.outcome !== 'created') throw new Error(`a create without an Idempotency-Key was answered ${result.outcome}`);
    return result.pet;
  }

  /**
   * Inserts the pet and its key in one transaction, unless the key answered a create within 24 hours or another
   * create with it is still running. The decision is the database's, so it holds across instances and processes.
   */
  insertIdempotently(pet: PetToCreate, claim: IdempotencyClaim): Promise<IdempotentInsert> {
    return this.database.runWrite(async () => {
      // A repeat of a create this process is committing right now gets the 409 that a create still running is due,
      // rather than a replay once the commit is done. Correctness does not rest on it: the batch decides in its transaction.
      if (this.committing.has(claimId(claim))) return { outcome: 'in_use' };
      return this.creates.add({ pet, claim });
    });
  }

  /** Forgets idempotency keys created at or before `before` (epoch ms). */
  async purgeIdempotencyKeys(before: number): Promise<void> {
    await this.database.runWrite(() => this.metrics.timeStatement('purge_idempotency_keys', () => this.sql.purgeClaims(before)));
  }

  /** Writes the search key of the pets an instance of an older version stored without it or with another; how many. */
  async completeNameKeys(): Promise<number> {
    // Nothing to do, and nothing worth a warning, while the database takes no writes: the next look comes soon.
    if (!this.database.writable) return 0;
    return this.database.runWrite(() => this.metrics.timeStatement('fill_name_keys', () => this.sql.fillNameKeys()));
  }

  /**
   * Writes one batch in one transaction and answers each create, in order: what the group commit runs, public so that
   * a batch's rules can be tried batch by batch. A batch without keys is one INSERT. One with keys, in an isolated
   * write: which keys another transaction holds, which are stored, the decision for each create (decide(): in-batch
   * repeats included), the pets to create inserted, their keys stored with their ids.
   */
  async writeBatch(batch: PendingCreate[]): Promise<IdempotentInsert[]> {
    const claims = batch.flatMap(({ claim }) => (claim ? [claim] : []));
    const write = await this.sql.beginWrite(claims.length > 0);
    let answers: IdempotentInsert[];
    try {
      answers = claims.length === 0 ? createdAll(await this.sql.insertPets(write.statement, batch.map(({ pet }) => pet))) : await this.decideAndWrite(write, batch, claims);
    } catch (error) {
      await write.rollback();
      throw error;
    }
    await write.commit();
    return answers;
  }

  private async decideAndWrite({ statement }: PetWrite, batch: PendingCreate[], claims: IdempotencyClaim[]): Promise<IdempotentInsert[]> {
    const heldElsewhere = await this.sql.keysHeldElsewhere?.(statement, claims);
    const stored = (await this.sql.selectClaims(statement, claims)).map(toStoredClaim);
    const decisions = decide(batch, stored, heldElsewhere);
    const creates = batch.filter((_, index) => decisions[index] === 'create');
    const pets = creates.length > 0 ? await this.sql.insertPets(statement, creates.map(({ pet }) => pet)) : [];
    const claimed = creates.flatMap(({ claim }, index) => (claim ? [storedClaim(claim, pets[index].id)] : []));
    if (claimed.length > 0) await this.sql.upsertClaims(statement, claimed);
    return answers(decisions, pets);
  }

  private async commit(batch: PendingCreate[]): Promise<IdempotentInsert[]> {
    this.metrics.groupCommitBatchSize.observe(batch.length);
    // Stryker disable next-line ArrayDeclaration: a create without a key adds none; a stray entry without "\n" is no claim's id
    this.committing = new Set(batch.flatMap(({ claim }) => (claim ? [claimId(claim)] : [])));
    try {
      return await this.metrics.timeStatement('insert_batch', () => this.writeBatch(batch));
    } finally {
      this.committing = new Set();
    }
  }

  private read(operation: 'find_by_ids' | 'find_page', select: () => Promise<Pet[]>): Promise<Pet[]> {
    return this.database.run(() => this.metrics.timeStatement(operation, select));
  }
}

const createdAll = (pets: Pet[]): IdempotentInsert[] => pets.map((pet) => ({ outcome: 'created', pet }));

/** The batch's answers in its order: each decision, with the created pets in place of 'create', in their order. */
function answers(decisions: Decision[], created: Pet[]): IdempotentInsert[] {
  let next = 0;
  return decisions.map((decision) => (decision === 'create' ? { outcome: 'created', pet: created[next++] } : decision));
}
