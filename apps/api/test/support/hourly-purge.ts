/**
 * Holds a purge to its schedule, under Jest's fake timers with the purge just started: nothing for 59,999 ms, one
 * purge at the minute, the next an hour later, and a failed purge said once as `<failureWords>: <its message>`.
 */
export async function expectPurgedHourly(purge: jest.Mock, warnings: jest.SpyInstance, failureWords: string): Promise<void> {
  await jest.advanceTimersByTimeAsync(59_999);
  expect(purge).not.toHaveBeenCalled();
  await jest.advanceTimersByTimeAsync(1);
  expect(purge).toHaveBeenCalledTimes(1);
  purge.mockRejectedValueOnce(new Error('database away'));
  await jest.advanceTimersByTimeAsync(3_599_999);
  expect(purge).toHaveBeenCalledTimes(1);
  await jest.advanceTimersByTimeAsync(1);
  expect(purge).toHaveBeenCalledTimes(2);
  expect(warnings.mock.calls).toEqual([[`${failureWords}: database away`]]);
}
