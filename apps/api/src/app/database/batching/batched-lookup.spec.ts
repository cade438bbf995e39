import { BatchedLookup } from './batched-lookup';

/** A lookup whose calls the test finishes one by one, recording the keys each was asked for. */
function controlledLookup() {
  const calls: Array<{ keys: number[]; finish: (error?: Error) => void }> = [];
  const lookup = (keys: number[]) =>
    new Promise<Map<number, string>>((resolve, reject) =>
      calls.push({ keys, finish: (error) => (error ? reject(error) : resolve(new Map(keys.filter((k) => k > 0).map((k) => [k, `pet ${k}`])))) }),
    );
  return { calls, lookup };
}

const identity = (key: number) => key;
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe(BatchedLookup.name, () => {
  it('looks a key up at once when a lookup slot is free', async () => {
    const { calls, lookup } = controlledLookup();
    const sut = new BatchedLookup(identity, lookup, 2);
    const answer = sut.load(1);
    expect(calls.map((c) => c.keys)).toEqual([[1]]);
    calls[0].finish();
    expect(await answer).toBe('pet 1');
  });

  it('gathers the keys asked for while the slots are busy into one lookup, once each, answering every caller', async () => {
    const { calls, lookup } = controlledLookup();
    const answered: number[] = [];
    const sut = new BatchedLookup(identity, lookup, 1, (requests) => answered.push(requests));
    const first = sut.load(1);
    const rest = [2, 3, 2, -4].map((key) => sut.load(key));
    expect(calls).toHaveLength(1);
    calls[0].finish();
    await settle();
    expect(calls.map((c) => c.keys)).toEqual([[1], [2, 3, -4]]);
    calls[1].finish();
    expect(await Promise.all([first, ...rest])).toEqual(['pet 1', 'pet 2', 'pet 3', 'pet 2', undefined]);
    // Requests answered per lookup, the duplicate key included.
    expect(answered).toEqual([1, 4]);
  });

  it('never starts more lookups at once than allowed, nor batches larger than the maximum', async () => {
    const { calls, lookup } = controlledLookup();
    const sut = new BatchedLookup(identity, lookup, 2, undefined, 3);
    const answers = Array.from({ length: 9 }, (_, i) => sut.load(i + 1));
    expect(calls.map((c) => c.keys)).toEqual([[1], [2]]);
    calls[0].finish();
    calls[1].finish();
    await settle();
    expect(calls.map((c) => c.keys)).toEqual([[1], [2], [3, 4, 5], [6, 7, 8]]);
    // A key left over from a full batch is still found, and joined, by a later caller.
    answers.push(sut.load(9));
    calls[2].finish();
    calls[3].finish();
    await settle();
    calls[4].finish();
    expect(await Promise.all(answers)).toEqual([...Array.from({ length: 9 }, (_, i) => `pet ${i + 1}`), 'pet 9']);
    expect(calls.map((c) => c.keys)[4]).toEqual([9]);
    expect(calls).toHaveLength(5);
  });

  it('fails a failed lookup\'s callers and those waiting behind it, then serves new callers', async () => {
    const { calls, lookup } = controlledLookup();
    const sut = new BatchedLookup(identity, lookup, 1);
    const failed = sut.load(1);
    const waiting = sut.load(2);
    calls[0].finish(new Error('database unreachable'));
    await expect(failed).rejects.toThrow('database unreachable');
    await expect(waiting).rejects.toThrow('database unreachable');
    expect(calls).toHaveLength(1);
    const later = sut.load(3);
    calls[1].finish();
    expect(await later).toBe('pet 3');
  });
});
