import { RedisCircuit, type RedisCircuitOptions } from './redis-circuit';

describe(RedisCircuit.name, () => {
  let probe: jest.Mock<Promise<unknown>, []>;
  let changes: Array<[boolean, string]>;
  let sut: RedisCircuit;

  const build = (options: Partial<RedisCircuitOptions> = {}) =>
    new RedisCircuit({ missesToOpen: 3, probeEveryMs: 500, probe, onChange: (shared, reason) => changes.push([shared, reason]), ...options });

  beforeEach(() => {
    jest.useFakeTimers();
    probe = jest.fn();
    changes = [];
    sut = build();
  });
  afterEach(() => {
    sut.stop();
    jest.useRealTimers();
  });

  it('stays shared until the given number of misses in a row, and an answer in between starts the count again', () => {
    sut.missed(new Error('Command timed out'));
    sut.missed(new Error('Command timed out'));
    sut.answered();
    sut.missed(new Error('Command timed out'));
    sut.missed(new Error('Command timed out'));
    expect(sut.shared).toBe(true);
    sut.missed(new Error('Command timed out'));
    expect(sut.shared).toBe(false);
    expect(changes).toEqual([[false, '3 calls in a row failed, the last: Command timed out']]);
  });

  it('reports the change once, however many calls miss while open', () => {
    for (let i = 0; i < 50; i += 1) sut.missed(new Error('Stream isn\'t writeable'));
    expect(changes).toHaveLength(1);
  });

  it('probes one at a time while open, and closes on the first probe that answers', async () => {
    let answer!: (value: unknown) => void;
    probe.mockRejectedValueOnce(new Error('Command timed out')).mockImplementationOnce(() => new Promise((resolve) => (answer = resolve)));
    for (let i = 0; i < 3; i += 1) sut.missed(new Error('Command timed out'));

    expect(probe).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(500);
    expect(probe).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(500);
    expect(probe).toHaveBeenCalledTimes(2);
    // The second probe hangs: no third starts beside it.
    await jest.advanceTimersByTimeAsync(5_000);
    expect(probe).toHaveBeenCalledTimes(2);
    expect(sut.shared).toBe(false);

    answer('PONG');
    await jest.advanceTimersByTimeAsync(0);
    expect(sut.shared).toBe(true);
    expect(changes).toEqual([
      [false, '3 calls in a row failed, the last: Command timed out'],
      [true, 'a probe answered'],
    ]);
    // Closed: no more probes.
    await jest.advanceTimersByTimeAsync(5_000);
    expect(probe).toHaveBeenCalledTimes(2);
  });

  it('opens again after it closed, when Redis goes silent again', async () => {
    probe.mockResolvedValue('PONG');
    for (let i = 0; i < 3; i += 1) sut.missed(new Error('Command timed out'));
    await jest.advanceTimersByTimeAsync(500);
    for (let i = 0; i < 3; i += 1) sut.missed(new Error('Command timed out'));
    expect(changes.map(([shared]) => shared)).toEqual([false, true, false]);
  });

  it('stops probing once stopped', async () => {
    for (let i = 0; i < 3; i += 1) sut.missed(new Error('Command timed out'));
    sut.stop();
    await jest.advanceTimersByTimeAsync(5_000);
    expect(probe).not.toHaveBeenCalled();
  });

  it('never starts probing once stopped, though calls go on missing', async () => {
    sut.stop();
    for (let i = 0; i < 3; i += 1) sut.missed(new Error('Command timed out'));
    await jest.advanceTimersByTimeAsync(5_000);
    expect(probe).not.toHaveBeenCalled();
  });

  it('stays open when stopped while a probe was under way, whatever the probe says', async () => {
    let answer!: (value: unknown) => void;
    probe.mockImplementationOnce(() => new Promise((resolve) => (answer = resolve)));
    for (let i = 0; i < 3; i += 1) sut.missed(new Error('Command timed out'));
    await jest.advanceTimersByTimeAsync(500);
    sut.stop();
    answer('PONG');
    await jest.advanceTimersByTimeAsync(0);
    expect(sut.shared).toBe(false);
    expect(changes).toHaveLength(1);
  });
});
