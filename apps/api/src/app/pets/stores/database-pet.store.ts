import type { Pet } from '@petstore/contract';
import type { DatabaseConnection } from '../../database/database-connection';
import type { IdempotencyClaim } from '../idempotency/idempotency-key';
import { type IdempotentInsert, type PetPageQuery, PetStore, type PetToCreate } from '../pet.store';
import { CreateGroupCommit, type PendingCreate } from './create-group-commit';
import type { Metrics } from '../../metrics/metrics';
import { PetLookups } from './pet-lookups';
import type { PageStatement } from './pet-page-sql';

/**
 * What both stores share: reads batched or shared (PetLookups), creates committed in batches (CreateGroupCommit), and every
 * operation run through the DatabaseConnection, so that a database that cannot serve is a 503. Each database says
 * only how it selects, writes a batch and forgets old keys.
 */
export abstract class DatabasePetStore extends PetStore {
  private readonly lookups: PetLookups;
  private readonly creates = new CreateGroupCommit((batch) => {
    this.metrics.groupCommitBatchSize.observe(batch.length);
    return this.metrics.timeStatement('insert_batch', () => this.writeCreates(batch));
  });

  /** @param readConnections how many connections serve reads: as many pages are read at once */
  protected constructor(
    protected readonly database: DatabaseConnection,
    private readonly metrics: Metrics,
    readConnections: number,
  ) {
    super();
    this.lookups = new PetLookups(
      (ids) => this.database.run(() => this.metrics.timeStatement('find_by_ids', () => this.selectByIds(ids))),
      (statement) => this.database.run(() => this.metrics.timeStatement('find_page', () => this.selectPage(statement))),
      readConnections,
      (lookup, requests) => this.metrics.lookupBatchSize[lookup].observe(requests),
    );
    metrics.gauge('petstore_group_commit_waiting', 'Creates gathered for the next group commit while one is being written.', () => this.creates.waiting);
  }

  // Refused before they queue for a lookup: behind one that hangs on a silent database they would wait its deadline.
  async findPage(query: PetPageQuery): Promise<Pet[]> {
    this.database.assertServing();
    return this.lookups.findPage(this.pageStatement(query));
  }

  async findById(id: number): Promise<Pet | undefined> {
    this.database.assertServing();
    return this.lookups.findById(id);
  }

  insert(pet: PetToCreate): Promise<Pet> {
    return this.database.runWrite(() => this.creates.create(pet));
  }

  insertIdempotently(pet: PetToCreate, claim: IdempotencyClaim): Promise<IdempotentInsert> {
    return this.database.runWrite(() => this.creates.createIdempotently(pet, claim));
  }

  async purgeIdempotencyKeys(before: number): Promise<void> {
    await this.database.runWrite(() => this.metrics.timeStatement('purge_idempotency_keys', () => this.deleteIdempotencyKeys(before)));
  }

  async completeNameKeys(): Promise<number> {
    // Nothing to do, and nothing worth a warning, while the database takes no writes: the next look comes soon.
    if (!this.database.writable) return 0;
    return this.database.runWrite(() => this.metrics.timeStatement('fill_name_keys', () => this.fillNameKeys()));
  }

  /** completeNameKeys on the connection that writes, in its turn. */
  protected abstract fillNameKeys(): Promise<number>;

  /** The pets with these ids that exist, in any order: one statement for the whole batch. */
  protected abstract selectByIds(ids: number[]): Promise<Pet[]>;

  /** The statement of a page, in this database's SQL. */
  protected abstract pageStatement(query: PetPageQuery): PageStatement;

  protected abstract selectPage(statement: PageStatement): Promise<Pet[]>;

  /** Writes a batch in one transaction; see CreateGroupCommit. */
  protected abstract writeCreates(batch: PendingCreate[]): Promise<IdempotentInsert[]>;

  /** Deletes the idempotency keys created at or before `before` (epoch ms). */
  protected abstract deleteIdempotencyKeys(before: number): Promise<unknown>;
}
