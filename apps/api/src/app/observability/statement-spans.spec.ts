import { type EndStatementSpan, spanned } from './statement-spans';

describe(spanned.name, () => {
  function recorder() {
    const ended: Array<Error | null> = [];
    const end: EndStatementSpan = (error) => ended.push(error);
    return { ended, end };
  }

  it('ends the span once the statement succeeds, and passes its result on', async () => {
    const { ended, end } = recorder();
    await expect(spanned(end, Promise.resolve([1, 2]))).resolves.toEqual([1, 2]);
    expect(ended).toEqual([null]);
  });

  it('ends the span with the error of a statement that fails, and passes the error on', async () => {
    const { ended, end } = recorder();
    const failure = new Error('SQLITE_BUSY');
    await expect(spanned(end, Promise.reject(failure))).rejects.toBe(failure);
    expect(ended).toEqual([failure]);
  });

  it('hands back the very same promise when there is no span', () => {
    const running = Promise.resolve('rows');
    expect(spanned(undefined, running)).toBe(running);
  });
});
