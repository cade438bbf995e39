import { Logger } from '@nestjs/common';
import { type BeatAnswer, DatabaseWatch, type Heartbeat } from './database-watch';

describe(DatabaseWatch.name, () => {
  let beats: Array<{ deadlineMs: number; settle: (error?: Error, answer?: BeatAnswer) => void }>;
  let heartbeat: Heartbeat;
  let evictions: number;
  let sut: DatabaseWatch;

  beforeEach(() => {
    jest.useFakeTimers();
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    beats = [];
    evictions = 0;
    heartbeat = {
      beat: (deadlineMs) =>
        new Promise<BeatAnswer>((resolve, reject) => beats.push({ deadlineMs, settle: (error, answer) => (error ? reject(error) : resolve(answer)) })),
      stop: jest.fn(),
    };
    sut = new DatabaseWatch(heartbeat, () => (evictions += 1), { everyMs: 500, deadlineMs: 1_000 });
    sut.start();
  });
  afterEach(() => {
    sut.stop();
    jest.restoreAllMocks();
    jest.useRealTimers();
  });

  const settleBeat = async (index: number, error?: Error, answer?: BeatAnswer) => {
    beats[index].settle(error, answer);
    await jest.advanceTimersByTimeAsync(0);
  };

  it('beats every interval after the last beat ended, one at a time, with its deadline', async () => {
    await jest.advanceTimersByTimeAsync(500);
    expect(beats).toHaveLength(1);
    expect(beats[0].deadlineMs).toBe(1_000);
    await jest.advanceTimersByTimeAsync(2_000);
    expect(beats).toHaveLength(1);
    await settleBeat(0);
    await jest.advanceTimersByTimeAsync(500);
    expect(beats).toHaveLength(2);
  });

  it('marks the database unreachable at the first unanswered beat, evicts the pool once, and recovers at the first answer', async () => {
    await jest.advanceTimersByTimeAsync(500);
    await settleBeat(0, new Error('no answer to a heartbeat within 1000 ms'));
    expect(sut.reachable).toBe(false);
    expect(evictions).toBe(1);
    expect(Logger.prototype.warn).toHaveBeenCalledWith(expect.stringContaining('no answer to a heartbeat within 1000 ms'));

    await jest.advanceTimersByTimeAsync(500);
    await settleBeat(1, new Error('Connection terminated due to connection timeout'));
    expect(evictions).toBe(1);
    expect(Logger.prototype.warn).toHaveBeenCalledTimes(1);

    await jest.advanceTimersByTimeAsync(500);
    await settleBeat(2);
    expect(sut.reachable).toBe(true);
    expect(jest.mocked(Logger.prototype.log).mock.calls).toEqual([['Database reachable again; serving']]);
    expect(jest.mocked(Logger.prototype.log).mock.contexts.map((logger) => (logger as unknown as { context: string }).context)).toEqual(['Database']);

    await jest.advanceTimersByTimeAsync(500);
    await settleBeat(3);
    expect(Logger.prototype.log).toHaveBeenCalledTimes(1);
  });

  it('marks the database read-only when a heartbeat finds it so, evicts the pool once, and writable at the first writable answer', async () => {
    await jest.advanceTimersByTimeAsync(500);
    await settleBeat(0, undefined, { writable: false });
    expect({ reachable: sut.reachable, writable: sut.writable, evictions }).toEqual({ reachable: true, writable: false, evictions: 1 });
    await jest.advanceTimersByTimeAsync(500);
    await settleBeat(1, undefined, { writable: false });
    expect(evictions).toBe(1);
    expect(Logger.prototype.warn).toHaveBeenCalledTimes(1);
    expect(Logger.prototype.warn).toHaveBeenCalledWith(
      'Database read-only (a heartbeat found it read-only: a standby, or a primary being demoted); creates answer 503 until it takes writes, reads go on',
    );

    await jest.advanceTimersByTimeAsync(500);
    await settleBeat(2, undefined, { writable: true });
    expect(sut.writable).toBe(true);
    expect(Logger.prototype.log).toHaveBeenCalledWith('Database writable again; serving creates');
  });

  it('marks the database read-only at once when a write is refused as read-only, until a heartbeat says otherwise', async () => {
    sut.sawReadOnly('a write was refused');
    sut.sawReadOnly('a write was refused');
    expect({ writable: sut.writable, evictions }).toEqual({ writable: false, evictions: 1 });
    expect(Logger.prototype.warn).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(500);
    await settleBeat(0);
    expect(sut.writable).toBe(true);
  });

  it('ignores the answer of a beat that was under way when it stopped, and what is refused afterwards', async () => {
    await jest.advanceTimersByTimeAsync(500);
    sut.sawReadOnly('a write was refused');
    sut.stop();
    await settleBeat(0, undefined, { writable: true });
    sut.sawReadOnly('a write was refused');
    expect({ writable: sut.writable, evictions }).toEqual({ writable: false, evictions: 1 });
    expect(Logger.prototype.log).not.toHaveBeenCalled();
  });

  it('ignores a beat that failed after it stopped', async () => {
    await jest.advanceTimersByTimeAsync(500);
    sut.stop();
    await settleBeat(0, new Error('Connection terminated'));
    expect({ reachable: sut.reachable, evictions }).toEqual({ reachable: true, evictions: 0 });
  });

  it('stops beating and closes the heartbeat when stopped', async () => {
    sut.stop();
    await jest.advanceTimersByTimeAsync(5_000);
    expect(beats).toHaveLength(0);
    expect(heartbeat.stop).toHaveBeenCalled();
  });
});
