import { EventEmitter } from 'node:events';
import { SHUTDOWN_DEADLINE_MS, stopOnSignals } from './stop-on-signals';

describe(stopOnSignals.name, () => {
  let signals: EventEmitter;
  let exits: number[];
  let closes: number;
  let finishClose: () => void;
  let failClose: (error: Error) => void;

  beforeEach(() => {
    jest.useFakeTimers();
    signals = new EventEmitter();
    exits = [];
    closes = 0;
    stopOnSignals(
      {
        log: () => undefined,
        close: () => {
          closes += 1;
          return new Promise<void>((resolve, reject) => {
            finishClose = resolve;
            failClose = reject;
          });
        },
        exit: (code) => exits.push(code),
      },
      signals,
    );
  });
  afterEach(() => jest.useRealTimers());

  it.each(['SIGTERM', 'SIGINT'])('exits 0 once %s has closed everything', async (signal) => {
    signals.emit(signal, signal);
    expect(exits).toEqual([]);
    finishClose();
    await jest.runAllTimersAsync();
    expect(exits).toEqual([0]);
  });

  it('exits 1 at the deadline when closing takes longer, within the 10 s orchestrators give', async () => {
    expect(SHUTDOWN_DEADLINE_MS).toBeLessThan(10_000);
    signals.emit('SIGTERM', 'SIGTERM');
    await jest.advanceTimersByTimeAsync(SHUTDOWN_DEADLINE_MS - 1);
    expect(exits).toEqual([]);
    await jest.advanceTimersByTimeAsync(1);
    expect(exits).toEqual([1]);
  });

  it('exits 1 when closing fails', async () => {
    signals.emit('SIGTERM', 'SIGTERM');
    failClose(new Error('pool gone'));
    await jest.runAllTimersAsync();
    expect(exits).toEqual([1]);
  });

  it('closes once when a second signal arrives during the stop', async () => {
    signals.emit('SIGINT', 'SIGINT');
    signals.emit('SIGTERM', 'SIGTERM');
    finishClose();
    await jest.runAllTimersAsync();
    expect(closes).toBe(1);
    expect(exits).toEqual([0]);
  });
});
