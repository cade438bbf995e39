import type { Pet } from '@petstore/contract';
import { BatchedLookup } from '../../database/batching/batched-lookup';
import type { PetPageQuery } from '../pet.store';

/**
 * Lookups of each kind running at once; whatever is asked for meanwhile is looked up together once it is done. One
 * lets batches grow largest (measured: see docs/performance.md, batched lookups).
 */
const LOOKUPS_IN_FLIGHT = 1;

const pageKeyOf = ({ status, afterId, take }: PetPageQuery) => `${status ?? ''}:${afterId}:${take}`;

/** The reads of both stores, batched: each store says how to select many ids at once, and one page. */
export class PetLookups {
  private readonly byId: BatchedLookup<number, number, Pet>;
  /** Requests for the same page that wait together share one query. */
  private readonly pages: BatchedLookup<PetPageQuery, string, Pet[]>;

  /** @param answered is told how many requests each lookup of a kind answered. */
  constructor(
    selectByIds: (ids: number[]) => Promise<Pet[]>,
    selectPage: (query: PetPageQuery) => Promise<Pet[]>,
    answered: (lookup: 'by_id' | 'page', requests: number) => void = () => undefined,
  ) {
    this.byId = new BatchedLookup(
      (id) => id,
      async (ids) => new Map((await selectByIds(ids)).map((pet) => [pet.id, pet])),
      LOOKUPS_IN_FLIGHT,
      (requests) => answered('by_id', requests),
    );
    this.pages = new BatchedLookup(
      pageKeyOf,
      async (queries) => new Map(await Promise.all(queries.map(async (query) => [pageKeyOf(query), await selectPage(query)] as const))),
      LOOKUPS_IN_FLIGHT,
      (requests) => answered('page', requests),
    );
  }

  async findPage(query: PetPageQuery): Promise<Pet[]> {
    return (await this.pages.load(query)) ?? [];
  }

  findById(id: number): Promise<Pet | undefined> {
    return this.byId.load(id);
  }
}
