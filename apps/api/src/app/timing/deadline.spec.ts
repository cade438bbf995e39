import { withDeadline } from './deadline';

describe(withDeadline.name, () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('settles as the work does when it ends in time', async () => {
    await expect(withDeadline(Promise.resolve('rows'), 1_000, () => new Error('late'))).resolves.toBe('rows');
    await expect(withDeadline(Promise.reject(new Error('refused')), 1_000, () => new Error('late'))).rejects.toThrow('refused');
  });

  it('rejects with the given error once the deadline passed', async () => {
    const late = withDeadline(new Promise(() => undefined), 1_000, () => new Error('late'));
    const expectation = expect(late).rejects.toThrow('late');
    await jest.advanceTimersByTimeAsync(1_001);
    await expectation;
  });
});
