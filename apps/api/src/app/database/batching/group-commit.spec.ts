import { setTimeout as sleep } from 'node:timers/promises';
import { GroupCommit } from './group-commit';

/** A write that numbers its items from where the last one stopped, as consecutive ids. */
const numbering = (lastId = 0) => (items: unknown[]) => Array.from({ length: items.length }, () => (lastId += 1));

describe(GroupCommit.name, () => {
  it('writes what arrives together in one call, giving each item its own result', async () => {
    const writes: string[][] = [];
    const nextIds = numbering(10);
    const sut = new GroupCommit<string, number>(async (items) => {
      writes.push(items);
      await sleep(5);
      return nextIds(items);
    });
    const first = sut.add('a');
    const rest = ['b', 'c', 'd'].map((item) => sut.add(item));
    expect(await Promise.all([first, ...rest])).toEqual([11, 12, 13, 14]);
    // 'a' started a write at once; 'b', 'c' and 'd' arrived while it ran and shared the next one.
    expect(writes).toEqual([['a'], ['b', 'c', 'd']]);
  });

  it('hands each item the result at its own position', async () => {
    const sut = new GroupCommit<string, string>(async (items) => items.map((item) => item.toUpperCase()));
    expect(await Promise.all(['x', 'y', 'z'].map((item) => sut.add(item)))).toEqual(['X', 'Y', 'Z']);
  });

  it('fails every item of a failed write, and carries on with the next', async () => {
    let calls = 0;
    const sut = new GroupCommit<string, number>(async (items) => {
      calls += 1;
      if (calls === 1) throw new Error('disk full');
      return items.map(() => 7);
    });
    const failed = sut.add('a');
    await expect(failed).rejects.toThrow('disk full');
    await expect(sut.add('b')).resolves.toBe(7);
  });

  it('fails the batch rather than resolve an item without its result', async () => {
    const sut = new GroupCommit<string, number>(async () => []);
    await expect(sut.add('a')).rejects.toThrow('a write of 1 items gave 0 results');
  });

  it('never puts more than 1,000 items in one write', async () => {
    const sizes: number[] = [];
    const nextIds = numbering();
    const sut = new GroupCommit<number, number>(async (items) => {
      sizes.push(items.length);
      await Promise.resolve();
      return nextIds(items);
    });
    const ids = await Promise.all(Array.from({ length: 2_500 }, (_, i) => sut.add(i)));
    expect(new Set(ids).size).toBe(2_500);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(1_000);
  });
});
