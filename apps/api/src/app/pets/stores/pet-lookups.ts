import type { Pet } from '@petstore/contract';
import { BatchedLookup } from '../../database/batching/batched-lookup';
import { SharedReads } from '../../database/batching/shared-reads';
import { type PageStatement, statementKey } from './pet-page-sql';

/**
 * Lookups by id running at once; the ids asked for meanwhile are looked up together once it is done. One lets batches
 * grow largest (measured: see docs/performance.md, batched lookups). A lookup by id is one primary-key read per id,
 * never slow, so no request waits behind a slow one here.
 */
const LOOKUPS_BY_ID_IN_FLIGHT = 1;

/**
 * The reads of both stores. Reads by id are batched, each answer keyed by its pet's id. Reads of pages take turns for
 * the connections that serve them, and requests for the same statement with the same values that wait for a turn
 * share it (SharedReads); none waits for another to end, so a slow search costs the requests that sent it, and the
 * connection it holds, never a list that differs from it.
 */
export class PetLookups {
  private readonly byId: BatchedLookup<number, number, Pet>;
  private readonly pages: SharedReads<Pet[]>;

  /** @param answered is told how many requests each lookup of a kind answered. */
  constructor(
    selectByIds: (ids: number[]) => Promise<Pet[]>,
    private readonly selectPage: (statement: PageStatement) => Promise<Pet[]>,
    /** Pages read at once: as many as the database's connections for reads. */
    pageSlots: number,
    answered: (lookup: 'by_id' | 'page', requests: number) => void = () => undefined,
  ) {
    this.byId = new BatchedLookup(
      (id) => id,
      async (ids) => new Map((await selectByIds(ids)).map((pet) => [pet.id, pet])),
      LOOKUPS_BY_ID_IN_FLIGHT,
      (requests) => answered('by_id', requests),
    );
    this.pages = new SharedReads(pageSlots, (requests) => answered('page', requests));
  }

  findPage(statement: PageStatement): Promise<Pet[]> {
    return this.pages.read(statementKey(statement), () => this.selectPage(statement));
  }

  findById(id: number): Promise<Pet | undefined> {
    return this.byId.load(id);
  }
}
