import { LineBatches } from './line-batches';

describe(LineBatches.name, () => {
  const line = (n: number) => `{"n":${n},"pad":"${'x'.repeat(200)}"}\n`;

  function destination() {
    const writes: string[] = [];
    let synced = 0;
    const fake = { write: (text: string) => writes.push(text), flushSync: () => synced++ };
    return { writes, synced: () => synced, sonic: fake as unknown as ConstructorParameters<typeof LineBatches>[0] };
  }

  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('hands lines over about 4 KiB at a time, whole and in order', () => {
    const { writes, sonic } = destination();
    const sut = new LineBatches(sonic);
    const lines = Array.from({ length: 40 }, (_, n) => line(n));
    for (const text of lines) sut.write(text);
    expect(writes.length).toBe(2);
    for (const batch of writes) expect(batch.length).toBeGreaterThanOrEqual(4096);
    sut.flush();
    expect(writes.join('')).toBe(lines.join(''));
  });

  it('writes a quiet moment\'s lines within a second', () => {
    const { writes, sonic } = destination();
    const sut = new LineBatches(sonic);
    sut.write(line(1));
    expect(writes).toEqual([]);
    jest.advanceTimersByTime(1_000);
    expect(writes).toEqual([line(1)]);
  });

  it('hands everything over and syncs the destination when flushed synchronously, as at exit', () => {
    const { writes, synced, sonic } = destination();
    const sut = new LineBatches(sonic);
    sut.write(line(1));
    sut.flushSync();
    expect(writes).toEqual([line(1)]);
    expect(synced()).toBe(1);
  });
});
