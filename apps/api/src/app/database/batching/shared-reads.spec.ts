import { SharedReads } from './shared-reads';

/** Reads that the test finishes one by one, recording which key each trip to the database was for. */
function controlledReads() {
  const trips: Array<{ key: string; finish: (value: string | Error) => void }> = [];
  const read = (key: string) => () =>
    new Promise<string>((resolve, reject) =>
      trips.push({ key, finish: (value) => (value instanceof Error ? reject(value) : resolve(value)) }),
    );
  return { trips, read };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe(SharedReads.name, () => {
  it('runs reads of different keys at once, so that a slow one holds up no other', async () => {
    const { trips, read } = controlledReads();
    const sut = new SharedReads<string>();
    const slow = sut.read('slow', read('slow'));
    const fast = sut.read('fast', read('fast'));
    expect(trips.map((trip) => trip.key)).toEqual(['slow', 'fast']);
    trips[1].finish('fast answer');
    expect(await fast).toBe('fast answer');
    trips[0].finish('slow answer');
    expect(await slow).toBe('slow answer');
  });

  it('lets reads of a key asked for while it runs share the next trip, never the running one', async () => {
    const { trips, read } = controlledReads();
    const answered: number[] = [];
    const sut = new SharedReads<string>((requests) => answered.push(requests));
    const first = sut.read('page', read('page'));
    const later = [sut.read('page', read('page')), sut.read('page', read('page'))];
    expect(trips).toHaveLength(1);
    trips[0].finish('before the create');
    expect(await first).toBe('before the create');
    await settle();
    // The later ones were asked for after the first trip started: they get a trip of their own, which sees more.
    expect(trips).toHaveLength(2);
    trips[1].finish('after the create');
    expect(await Promise.all(later)).toEqual(['after the create', 'after the create']);
    expect(answered).toEqual([1, 2]);
    // Nothing is kept: the next read makes a trip of its own.
    const again = sut.read('page', read('page'));
    expect(trips).toHaveLength(3);
    trips[2].finish('fresh');
    expect(await again).toBe('fresh');
  });

  it('fails those waiting behind a failed read with it, then serves new reads', async () => {
    const { trips, read } = controlledReads();
    const sut = new SharedReads<string>();
    const failed = sut.read('page', read('page'));
    const waiting = sut.read('page', read('page'));
    trips[0].finish(new Error('database unreachable'));
    await expect(failed).rejects.toThrow('database unreachable');
    await expect(waiting).rejects.toThrow('database unreachable');
    expect(trips).toHaveLength(1);
    const later = sut.read('page', read('page'));
    trips[1].finish('back');
    expect(await later).toBe('back');
  });

  it('fails the shared trip\'s readers, and only them, when it fails', async () => {
    const { trips, read } = controlledReads();
    const sut = new SharedReads<string>();
    const first = sut.read('page', read('page'));
    const second = sut.read('page', read('page'));
    trips[0].finish('ok');
    expect(await first).toBe('ok');
    await settle();
    trips[1].finish(new Error('statement timeout'));
    await expect(second).rejects.toThrow('statement timeout');
    const third = sut.read('page', read('page'));
    trips[2].finish('ok again');
    expect(await third).toBe('ok again');
  });
});
