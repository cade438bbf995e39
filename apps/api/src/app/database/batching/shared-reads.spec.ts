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
  it('runs reads of different keys at once while slots are free, so that a slow one holds up no other', async () => {
    const { trips, read } = controlledReads();
    const sut = new SharedReads<string>(2);
    const slow = sut.read('slow', read('slow'));
    const fast = sut.read('fast', read('fast'));
    expect(trips.map((trip) => trip.key)).toEqual(['slow', 'fast']);
    trips[1].finish('fast answer');
    expect(await fast).toBe('fast answer');
    // The freed slot serves the next read at once, the slow one still running.
    const next = sut.read('next', read('next'));
    expect(trips.map((trip) => trip.key)).toEqual(['slow', 'fast', 'next']);
    trips[2].finish('next answer');
    expect(await next).toBe('next answer');
    trips[0].finish('slow answer');
    expect(await slow).toBe('slow answer');
  });

  it('runs one read of a key at a time: those asked for meanwhile share the next trip, never the running one', async () => {
    const { trips, read } = controlledReads();
    const answered: number[] = [];
    const sut = new SharedReads<string>(4, (requests) => answered.push(requests));
    const first = sut.read('page', read('page'));
    const later = [sut.read('page', read('page')), sut.read('page', read('page'))];
    // Slots are free, but the key is running.
    expect(trips.map((trip) => trip.key)).toEqual(['page']);
    trips[0].finish('before the create');
    expect(await first).toBe('before the create');
    await settle();
    // The later ones were asked for after the first trip started: one trip of their own, which sees more.
    expect(trips.map((trip) => trip.key)).toEqual(['page', 'page']);
    trips[1].finish('after the create');
    expect(await Promise.all(later)).toEqual(['after the create', 'after the create']);
    expect(answered).toEqual([1, 2]);
    // Nothing is kept: the next read makes a trip of its own.
    const again = sut.read('page', read('page'));
    expect(trips).toHaveLength(3);
    trips[2].finish('fresh');
    expect(await again).toBe('fresh');
  });

  it('starts the reads that wait for a slot first come first served, passing over a key that is running', async () => {
    const { trips, read } = controlledReads();
    const sut = new SharedReads<string>(2);
    const answers = [sut.read('a', read('a')), sut.read('b', read('b')), sut.read('a', read('a')), sut.read('c', read('c')), sut.read('d', read('d'))];
    expect(trips.map((trip) => trip.key)).toEqual(['a', 'b']);
    trips[1].finish('b');
    await settle();
    // 'a' waits for its running read; 'c' takes the free slot.
    expect(trips.map((trip) => trip.key)).toEqual(['a', 'b', 'c']);
    trips[0].finish('a1');
    await settle();
    expect(trips.map((trip) => trip.key)).toEqual(['a', 'b', 'c', 'a']);
    trips[2].finish('c');
    trips[3].finish('a2');
    await settle();
    trips[4].finish('d');
    expect(await Promise.all(answers)).toEqual(['a1', 'b', 'a2', 'c', 'd']);
  });

  it("fails a failed read's requests, and only them, then serves the reads waiting behind it", async () => {
    const { trips, read } = controlledReads();
    const sut = new SharedReads<string>(1);
    const busy = sut.read('busy', read('busy'));
    const failed = [sut.read('page', read('page')), sut.read('page', read('page'))];
    const waiting = sut.read('other', read('other'));
    trips[0].finish('done');
    expect(await busy).toBe('done');
    await settle();
    trips[1].finish(new Error('statement timeout'));
    for (const request of failed) await expect(request).rejects.toThrow('statement timeout');
    await settle();
    expect(trips.map((trip) => trip.key)).toEqual(['busy', 'page', 'other']);
    trips[2].finish('other answer');
    expect(await waiting).toBe('other answer');
    const later = sut.read('page', read('page'));
    trips[3].finish('back');
    expect(await later).toBe('back');
  });
});
