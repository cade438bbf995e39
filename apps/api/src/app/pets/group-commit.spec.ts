import { GroupCommit } from './group-commit';

describe(GroupCommit.name, () => {
  it('writes what arrives together in one call, giving each item its consecutive id', async () => {
    const writes: string[][] = [];
    let lastId = 10;
    const sut = new GroupCommit<string>(async (items) => {
      writes.push(items);
      await new Promise((resolve) => setTimeout(resolve, 5));
      lastId += items.length;
      return lastId;
    });
    const first = sut.add('a');
    const rest = ['b', 'c', 'd'].map((item) => sut.add(item));
    expect(await Promise.all([first, ...rest])).toEqual([11, 12, 13, 14]);
    // 'a' started a write at once; 'b', 'c' and 'd' arrived while it ran and shared the next one.
    expect(writes).toEqual([['a'], ['b', 'c', 'd']]);
  });

  it('fails every item of a failed write, and carries on with the next', async () => {
    let calls = 0;
    const sut = new GroupCommit<string>(async () => {
      calls += 1;
      if (calls === 1) throw new Error('disk full');
      return 7;
    });
    const failed = sut.add('a');
    await expect(failed).rejects.toThrow('disk full');
    await expect(sut.add('b')).resolves.toBe(7);
  });

  it('never puts more than 1,000 rows in one statement', async () => {
    const sizes: number[] = [];
    let lastId = 0;
    const sut = new GroupCommit<number>(async (items) => {
      sizes.push(items.length);
      await Promise.resolve();
      lastId += items.length;
      return lastId;
    });
    const ids = await Promise.all(Array.from({ length: 2_500 }, (_, i) => sut.add(i)));
    expect(new Set(ids).size).toBe(2_500);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(1_000);
  });
});
