import { TransactionQueue } from './transaction-queue';

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe(TransactionQueue.name, () => {
  it('runs transactions one after another, in the order given, a failed one not stopping the next', async () => {
    const sut = new TransactionQueue();
    const events: string[] = [];
    let finishFirst!: () => void;
    const first = sut.run(async () => {
      events.push('first starts');
      await new Promise<void>((resolve) => (finishFirst = resolve));
      events.push('first ends');
      throw new Error('rolled back');
    });
    const second = sut.run(async () => {
      events.push('second starts');
      return 2;
    });
    await settle();
    expect(events).toEqual(['first starts']);
    finishFirst();
    await expect(first).rejects.toThrow('rolled back');
    await expect(second).resolves.toBe(2);
    expect(events).toEqual(['first starts', 'first ends', 'second starts']);
  });

  it('hands a turn taken step by step its end: the next transaction starts only once it is called', async () => {
    const sut = new TransactionQueue();
    const events: string[] = [];
    const before = sut.run(async () => void events.push('before'));
    const end = await sut.take();
    events.push('taken');
    const after = sut.run(async () => void events.push('after'));
    const taken = sut.take().then((endAgain) => {
      events.push('taken again');
      endAgain();
    });
    await settle();
    expect(events).toEqual(['before', 'taken']);
    end();
    await Promise.all([before, after, taken]);
    expect(events).toEqual(['before', 'taken', 'after', 'taken again']);
  });
});
