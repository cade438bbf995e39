import { setTimeout as sleep } from 'node:timers/promises';
import { type Pet, PetStatus } from '@petstore/contract';
import { ApiException } from '../errors/api-exception';
import { Metrics } from '../metrics/metrics';
import { decodeCursor } from './pet-cursor';
import type { IdempotencyClaim } from './idempotency/idempotency-key';
import type { IdempotentInsert, PetStore } from './pet.store';
import type { PetPageQuery } from './pet-store-requests';
import { PetsService } from './pets.service';

/** An in-memory stand-in for the table, with the store's contract: pages keyed on id, ascending. */
class InMemoryPets {
  rows: Pet[] = [];
  findPage = async ({ filters: { status }, afterId, take }: PetPageQuery) =>
    this.rows.filter((row) => row.id > afterId && (!status || row.status === status)).slice(0, take);
  findById = async (id: number) => this.rows.find((row) => row.id === id);
  insert = async (pet: Omit<Pet, 'id'>) => {
    const row = { ...pet, id: this.rows.length + 1 };
    this.rows.push(row);
    return row;
  };
  claims = new Map<string, { fingerprint: string; petId: number }>();
  /** Keys whose create has not committed yet: the store answers another create with them as in use. */
  running = new Set<string>();
  /** Lets a test hold creates open, as a slow commit would. */
  commit: Promise<void> = Promise.resolve();
  insertIdempotently = async (pet: Omit<Pet, 'id'>, claim: IdempotencyClaim): Promise<IdempotentInsert> => {
    const id = `${claim.holder}/${claim.key}`;
    const stored = this.claims.get(id);
    if (stored) return { outcome: 'stored', ...stored };
    if (this.running.has(id)) return { outcome: 'in_use' };
    this.running.add(id);
    try {
      await this.commit;
      const row = await this.insert(pet);
      this.claims.set(id, { fingerprint: claim.fingerprint, petId: row.id });
      return { outcome: 'created', pet: row };
    } finally {
      this.running.delete(id);
    }
  };
}

describe(PetsService.name, () => {
  let table: InMemoryPets;
  let metrics: Metrics;
  let sut: PetsService;

  beforeEach(async () => {
    table = new InMemoryPets();
    metrics = new Metrics();
    sut = new PetsService(table as unknown as PetStore, metrics);
  });

  /** A counter's values by its `reason` label ('' for a counter without labels). */
  const counted = async (name: string) =>
    Object.fromEntries(((await metrics.registry.getSingleMetric(name)?.get())?.values ?? []).map(({ labels, value }) => [labels.reason ?? '', value]));

  describe('createPet', () => {
    it('stores an omitted status as available, as a create of its own', async () => {
      expect(await sut.createPet({ name: 'Rex', categoryId: 1 })).toEqual({ pet: { id: 1, name: 'Rex', categoryId: 1, status: 'available' }, replayed: false });
    });

    it('keeps a given status', async () => {
      expect((await sut.createPet({ name: 'Rex', categoryId: 1, status: PetStatus.Sold })).pet.status).toBe('sold');
    });
  });

  describe('createPet with an idempotency key', () => {
    const key = { holder: 'env:a', key: 'k-1' };

    it('answers a retry with an equal body with the stored pet, marked as replayed', async () => {
      const first = await sut.createPet({ name: 'Rex', categoryId: 1 }, key);
      const retry = await sut.createPet({ categoryId: 1, name: 'Rex' }, key);
      expect(retry).toEqual({ pet: first.pet, replayed: true });
      expect(table.rows).toHaveLength(1);
    });

    it('refuses the key with another body', async () => {
      await sut.createPet({ name: 'Rex', categoryId: 1 }, key);
      await expect(sut.createPet({ name: 'Rex', categoryId: 2 }, key)).rejects.toMatchObject({
        code: 'idempotency_key_reused',
        message: 'Idempotency-Key was already used with a different request body; send a new key to create another pet.',
      });
    });

    it('counts each replay and each refusal by its reason', async () => {
      await sut.createPet({ name: 'Rex', categoryId: 1 }, key);
      await sut.createPet({ name: 'Rex', categoryId: 1 }, key);
      await sut.createPet({ name: 'Rex', categoryId: 1 }, key);
      await expect(sut.createPet({ name: 'Rex', categoryId: 2 }, key)).rejects.toThrow(ApiException);
      table.insertIdempotently = async () => ({ outcome: 'in_use' });
      await expect(sut.createPet({ name: 'Rex', categoryId: 1 }, key)).rejects.toThrow(ApiException);
      await expect(sut.createPet({ name: 'Rex', categoryId: 1 }, key)).rejects.toThrow(ApiException);
      expect(await counted('petstore_idempotent_replays_total')).toEqual({ '': 2 });
      expect(await counted('petstore_idempotency_conflicts_total')).toEqual({ reused: 1, in_use: 2 });
    });

    it('keeps keys of different holders apart', async () => {
      await sut.createPet({ name: 'Rex', categoryId: 1 }, key);
      expect((await sut.createPet({ name: 'Tom', categoryId: 1 }, { ...key, holder: 'env:b' })).replayed).toBe(false);
      expect(table.rows).toHaveLength(2);
    });

    it('answers 409 while the store finds the key in use, then replays once the first committed', async () => {
      let commit = () => undefined as void;
      table.commit = new Promise((resolve) => (commit = resolve));
      const first = sut.createPet({ name: 'Rex', categoryId: 1 }, key);
      await expect(sut.createPet({ name: 'Rex', categoryId: 1 }, key)).rejects.toMatchObject({
        code: 'idempotency_key_in_use',
        message: 'Idempotency-Key belongs to a create that is still running; retry once it has been answered.',
        headers: { 'retry-after': '1' },
      });
      commit();
      await first;
      expect((await sut.createPet({ name: 'Rex', categoryId: 1 }, key)).replayed).toBe(true);
    });

    it('lets the key be retried after the first attempt failed', async () => {
      table.commit = Promise.reject(new Error('disk full'));
      await expect(sut.createPet({ name: 'Rex', categoryId: 1 }, key)).rejects.toThrow('disk full');
      table.commit = Promise.resolve();
      expect((await sut.createPet({ name: 'Rex', categoryId: 1 }, key)).replayed).toBe(false);
    });

    it('passes on a key in use elsewhere (another instance or process) as 409', async () => {
      table.insertIdempotently = async () => ({ outcome: 'in_use' });
      await expect(sut.createPet({ name: 'Rex', categoryId: 1 }, key)).rejects.toMatchObject({ code: 'idempotency_key_in_use' });
    });

    it('keeps no claims of its own: concurrent creates with one key all reach the store, which decides', async () => {
      const asked: string[] = [];
      table.insertIdempotently = async (_pet, claim) => {
        asked.push(claim.key);
        await sleep(5);
        return { outcome: 'in_use' };
      };
      const creates = [1, 2].map(() => sut.createPet({ name: 'Rex', categoryId: 1 }, key));
      for (const create of creates) await expect(create).rejects.toMatchObject({ code: 'idempotency_key_in_use' });
      expect(asked).toEqual(['k-1', 'k-1']);
    });
  });

  describe('listPets', () => {
    beforeEach(async () => {
      for (let i = 0; i < 25; i += 1) await sut.createPet({ name: `p${i}`, categoryId: 1, status: i % 5 === 0 ? PetStatus.Sold : PetStatus.Available });
    });

    it('returns the default 20 and a cursor at the last one', async () => {
      const page = await sut.listPets({});
      expect(page.pets.map((p) => p.id)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      expect(decodeCursor(page.nextCursor as string)).toBe(20);
    });

    it('gives no cursor when the page holds the rest exactly', async () => {
      const page = await sut.listPets({ limit: 5, cursor: (await sut.listPets({ limit: 20 })).nextCursor });
      expect(page.pets.map((p) => p.id)).toEqual([21, 22, 23, 24, 25]);
      expect(page.nextCursor).toBeUndefined();
    });

    it('filters by status across pages', async () => {
      const first = await sut.listPets({ status: PetStatus.Sold, limit: 3 });
      const second = await sut.listPets({ status: PetStatus.Sold, limit: 3, cursor: first.nextCursor });
      expect([...first.pets, ...second.pets].map((p) => p.id)).toEqual([1, 6, 11, 16, 21]);
      expect(second.nextCursor).toBeUndefined();
    });
  });

  describe('getPet', () => {
    it('returns the pet', async () => {
      const { pet } = await sut.createPet({ name: 'Rex', categoryId: 9 });
      expect(await sut.getPet(pet.id)).toEqual(pet);
    });

    it('answers an absent pet with not_found', async () => {
      await expect(sut.getPet(404)).rejects.toMatchObject({ code: 'not_found', message: 'No pet has id 404.' });
      await expect(sut.getPet(404)).rejects.toBeInstanceOf(ApiException);
    });
  });
});
