import { PetStatus } from '@petstore/contract';
import type { IdempotencyClaim } from '../idempotency/idempotency-key';
import type { IdempotentInsert } from '../pet.store';
import { CreateGroupCommit, type PendingCreate } from './create-group-commit';
import { answers } from './create-transaction';

const pet = (name: string) => ({ name, categoryId: 1, status: PetStatus.Available });
const claim = (key: string, createdAt = Date.now()): IdempotencyClaim => ({ holder: 'env:a', key, fingerprint: `fp-${key}`, createdAt });

describe(CreateGroupCommit.name, () => {
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
    const sut = new CreateGroupCommit(writer.write);
    const first = sut.createIdempotently(pet('Slow'), claim('k'));
    await Promise.resolve();
    await expect(sut.createIdempotently(pet('Slow'), claim('k'))).resolves.toEqual({ outcome: 'in_use' });
    writer.release();
    await expect(first).resolves.toEqual({ outcome: 'created', pet: { ...pet('Slow'), id: 100 } });
    expect(writer.batches).toHaveLength(1);
  });

  it("forgets the batch's keys once it is committed or failed: a repeat then goes to the writer, which decides", async () => {
    const writer = heldWriter();
    const sut = new CreateGroupCommit(writer.write);
    const first = sut.createIdempotently(pet('Rex'), claim('k'));
    writer.release();
    await first;
    await expect(sut.createIdempotently(pet('Rex'), claim('k'))).resolves.toMatchObject({ outcome: 'created' });
    expect(writer.batches).toHaveLength(2);
    const failing = new CreateGroupCommit(async () => Promise.reject(new Error('disk full')));
    await expect(failing.createIdempotently(pet('Rex'), claim('k'))).rejects.toThrow('disk full');
    await expect(failing.createIdempotently(pet('Rex'), claim('k'))).rejects.toThrow('disk full');
  });

  it('writes the creates that arrive during a commit together in the next batch, and answers each with its own pet', async () => {
    const writer = heldWriter();
    const sut = new CreateGroupCommit(writer.write);
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
    const sut = new CreateGroupCommit(async (batch) => batch.map(() => ({ outcome: 'in_use' })));
    await expect(sut.create(pet('a'))).rejects.toThrow(/answered in_use/);
  });

  it('rejects every create of a batch whose write fails', async () => {
    const sut = new CreateGroupCommit(async () => Promise.reject(new Error('disk full')));
    await expect(Promise.all([sut.create(pet('a')), sut.createIdempotently(pet('b'), claim('b'))])).rejects.toThrow('disk full');
  });
});
