import { PetStatus } from '@petstore/contract';
import { IDEMPOTENCY_KEY_TTL_MS, type IdempotencyClaim } from '../idempotency/idempotency-key';
import type { IdempotentInsert } from '../pet.store';
import { answers, BatchedCreates, decide, type PendingCreate, type StoredClaim } from './batched-creates';

const pet = (name: string) => ({ name, categoryId: 1, status: PetStatus.Available });
const claim = (key: string, createdAt = Date.now()): IdempotencyClaim => ({ holder: 'env:a', key, fingerprint: `fp-${key}`, createdAt });
const stored = (key: string, createdAt: number, petId = 7): StoredClaim => ({ holder: 'env:a', key, fingerprint: `fp-${key}`, petId: String(petId), createdAt: String(createdAt) });

describe(BatchedCreates.name, () => {
  /** A writer that creates every pet of a batch, holding each batch until released. */
  function heldWriter() {
    const batches: PendingCreate[][] = [];
    let release!: () => void;
    let held = new Promise<void>((resolve) => (release = resolve));
    const write = async (batch: PendingCreate[]): Promise<IdempotentInsert[]> => {
      batches.push(batch);
      await held;
      return answers(batch.map(() => 'create'), batch.map(({ pet: created }, index) => ({ ...created, id: batches.length * 100 + index })));
    };
    return {
      batches,
      write,
      release: () => {
        release();
        held = Promise.resolve();
      },
    };
  }

  it('answers a create whose key the batch being committed holds as in use at once, without queueing it', async () => {
    const writer = heldWriter();
    const sut = new BatchedCreates(writer.write);
    const first = sut.createIdempotently(pet('Slow'), claim('k'));
    await Promise.resolve();
    await expect(sut.createIdempotently(pet('Slow'), claim('k'))).resolves.toEqual({ outcome: 'in_use' });
    writer.release();
    await expect(first).resolves.toEqual({ outcome: 'created', pet: { ...pet('Slow'), id: 100 } });
    expect(writer.batches).toHaveLength(1);
  });

  it('writes the creates that arrive during a commit together in the next batch, and answers each with its own pet', async () => {
    const writer = heldWriter();
    const sut = new BatchedCreates(writer.write);
    const first = sut.create(pet('a'));
    await Promise.resolve();
    const later = ['b', 'c', 'd'].map((name) => sut.create(pet(name)));
    writer.release();
    expect((await Promise.all([first, ...later])).map(({ id, name }) => [id, name])).toEqual([
      [100, 'a'],
      [200, 'b'],
      [201, 'c'],
      [202, 'd'],
    ]);
    expect(writer.batches.map((batch) => batch.length)).toEqual([1, 3]);
  });

  it('refuses a writer that answers a create without a key with anything but a new pet', async () => {
    const sut = new BatchedCreates(async (batch) => batch.map(() => ({ outcome: 'in_use' })));
    await expect(sut.create(pet('a'))).rejects.toThrow(/answered in_use/);
  });

  it('rejects every create of a batch whose write fails', async () => {
    const sut = new BatchedCreates(async () => Promise.reject(new Error('disk full')));
    await expect(Promise.all([sut.create(pet('a')), sut.createIdempotently(pet('b'), claim('b'))])).rejects.toThrow('disk full');
  });
});

describe(decide.name, () => {
  const now = Date.now();

  it('creates pets without keys and with new keys', () => {
    expect(decide([{ pet: pet('a') }, { pet: pet('b'), claim: claim('b', now) }], [])).toEqual(['create', 'create']);
  });

  it('answers a key stored within 24 hours from its row, for every create of the batch that sends it', () => {
    const batch = [{ pet: pet('a'), claim: claim('k', now) }, { pet: pet('b'), claim: claim('k', now) }];
    const found = { outcome: 'stored', fingerprint: 'fp-k', petId: 7 };
    expect(decide(batch, [stored('k', now - 1_000)])).toEqual([found, found]);
  });

  it('creates anew for a key stored 24 hours or more before', () => {
    expect(decide([{ pet: pet('a'), claim: claim('k', now) }], [stored('k', now - IDEMPOTENCY_KEY_TTL_MS)])).toEqual(['create']);
  });

  it('answers a later create of the batch with a key an earlier one claims as in use', () => {
    const batch = [{ pet: pet('a'), claim: claim('k', now) }, { pet: pet('b') }, { pet: pet('c'), claim: claim('k', now) }];
    expect(decide(batch, [])).toEqual(['create', 'create', { outcome: 'in_use' }]);
  });

  it('answers a key another transaction holds as in use, even when it is stored', () => {
    const batch = [{ pet: pet('a'), claim: claim('k', now) }, { pet: pet('b'), claim: claim('n', now) }];
    expect(decide(batch, [stored('k', now)], new Set(['env:a\nk']))).toEqual([{ outcome: 'in_use' }, 'create']);
  });

  it('tells keys of different holders apart', () => {
    const theirs = { pet: pet('a'), claim: { ...claim('k', now), holder: 'env:b' } };
    expect(decide([theirs], [stored('k', now)])).toEqual(['create']);
  });
});
