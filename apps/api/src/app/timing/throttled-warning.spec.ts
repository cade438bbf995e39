import { ThrottledWarning } from './throttled-warning';

describe(ThrottledWarning.name, () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('logs the first warning, none for the rest of the period, and the next one after it', () => {
    const logged: string[] = [];
    const sut = new ThrottledWarning({ warn: (message) => logged.push(message) }, 60_000);
    sut.warn('one');
    jest.advanceTimersByTime(59_999);
    sut.warn('two');
    jest.advanceTimersByTime(1);
    sut.warn('three');
    expect(logged).toEqual(['one', 'three']);
  });
});
