import { Repeating } from './repeating';

describe(Repeating.name, () => {
  let runs: Array<() => void>;
  let sut: Repeating;

  beforeEach(() => {
    jest.useFakeTimers();
    runs = [];
    sut = new Repeating(500, () => new Promise<void>((resolve) => runs.push(resolve)));
  });
  afterEach(() => {
    sut.stop();
    jest.useRealTimers();
  });

  it('runs the task every interval after the previous run ended, never two at once', async () => {
    sut.start();
    await jest.advanceTimersByTimeAsync(500);
    expect(runs).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(5_000);
    expect(runs).toHaveLength(1);
    runs[0]();
    await jest.advanceTimersByTimeAsync(499);
    expect(runs).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(runs).toHaveLength(2);
  });

  it('stops, and starts again, with one chain of runs even when both happen during a run', async () => {
    sut.start();
    await jest.advanceTimersByTimeAsync(500);
    sut.stop();
    sut.start();
    runs[0]();
    await jest.advanceTimersByTimeAsync(500);
    expect(runs).toHaveLength(2);
    runs[1]();
    await jest.advanceTimersByTimeAsync(500);
    expect(runs).toHaveLength(3);
  });

  it('runs soon when asked, or right after the run under way, then every interval again; never while stopped', async () => {
    sut.soon();
    await jest.advanceTimersByTimeAsync(1_000);
    expect(runs).toHaveLength(0);
    sut.start();
    sut.soon();
    await jest.advanceTimersByTimeAsync(0);
    expect(runs).toHaveLength(1);
    // Asked twice during the run: one run right after it.
    sut.soon();
    sut.soon();
    runs[0]();
    await jest.advanceTimersByTimeAsync(0);
    expect(runs).toHaveLength(2);
    runs[1]();
    await jest.advanceTimersByTimeAsync(499);
    expect(runs).toHaveLength(2);
    await jest.advanceTimersByTimeAsync(1);
    expect(runs).toHaveLength(3);
  });

  it('runs the first time after its own delay when given one, then every interval', async () => {
    const first = new Repeating(500, () => new Promise<void>((resolve) => runs.push(resolve)), 60_000);
    first.start();
    await jest.advanceTimersByTimeAsync(59_999);
    expect(runs).toHaveLength(0);
    await jest.advanceTimersByTimeAsync(1);
    expect(runs).toHaveLength(1);
    runs[0]();
    await jest.advanceTimersByTimeAsync(500);
    expect(runs).toHaveLength(2);
    first.stop();
  });

  it('runs nothing once stopped', async () => {
    sut.start();
    sut.stop();
    await jest.advanceTimersByTimeAsync(5_000);
    expect(runs).toHaveLength(0);
  });
});
