import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SqliteDialect } from '../../database/sqlite/sqlite.dialect';
import { Repeating } from '../../timing/repeating';
import type { LoggedEvent, PetEventLog } from '../log/pet-event-log';
import { SqlitePetEventLog } from '../log/sqlite-pet-event-log';
import { EventFeed, type FeedSubscriber, type FeedTiming, type Opened } from './event-feed';
import { untilHolds } from '../../../../test/support/until';

/** A stream as a test holds it: what it was delivered, whether and why the feed let it go. */
class Recorded implements FeedSubscriber {
  events: LoggedEvent[] = [];
  closedFor?: 'behind' | 'stopping';
  constructor(private readonly room = Infinity) {}

  deliver(events: readonly LoggedEvent[]): boolean {
    this.events.push(...events);
    return this.events.length <= this.room;
  }

  closed(reason: 'behind' | 'stopping'): void {
    this.closedFor = reason;
  }

  get positions(): number[] {
    return this.events.map(({ position }) => position);
  }
}

/** Positions `from` + 1 to `to`. */
const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from) }, (_, index) => from + 1 + index);

describe(EventFeed.name, () => {
  const timing: FeedTiming = { pollMs: 10, pageSize: 3, recent: 5 };
  let dir: string;
  let dataSource: DataSource;
  let dialect: SqliteDialect;
  let log: PetEventLog;
  let feed: EventFeed;
  let created = 0;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'petstore-event-feed-'));
    dialect = new SqliteDialect({ type: 'sqlite', path: join(dir, 'petstore.sqlite'), poolSize: 1, connectTimeoutMs: 5_000, statementTimeoutMs: 5_000 });
    dataSource = await new DataSource(await dialect.options()).initialize();
    await dialect.migrate(dataSource);
    log = new SqlitePetEventLog(dataSource, dialect.transactions);
    feed = new EventFeed(log, timing);
    created = 0;
  });

  afterEach(async () => {
    feed.beforeApplicationShutdown();
    await dataSource.destroy();
    rmSync(dir, { recursive: true, force: true });
    jest.restoreAllMocks();
  });

  /** Creates `count` pets in one statement, as a batch of creates does; answers the last position. */
  const create = async (count = 1): Promise<number> => {
    const rows = Array.from({ length: count }, () => {
      created += 1;
      return `('Pet ${created}', 1, 'available', 'pet ${created}')`;
    });
    await dialect.transactions.run(() => dataSource.query(`INSERT INTO pets (name, category_id, status, name_key) VALUES ${rows.join(', ')}`));
    return created;
  };
  const opened = async (after: number | undefined, subscriber: FeedSubscriber): Promise<Extract<Opened, { kind: 'stream' }>> => {
    const result = await feed.open(after, subscriber);
    if (result.kind !== 'stream') throw new Error(`a reset: ${JSON.stringify(result)}`);
    return result;
  };

  it('streams, without a position, the events after the last one there was, in order, each once, with its pet', async () => {
    const warnings = jest.spyOn(Logger.prototype, 'warn');
    await create(2);
    const stream = new Recorded();
    await opened(undefined, stream);
    await create(4);
    await create();
    await untilHolds(() => stream.events.length === 5, 'five events');
    expect(stream.positions).toEqual([3, 4, 5, 6, 7]);
    expect(stream.events[0]).toEqual({ position: 3, type: 'pet.created', createdAt: expect.any(Number), pet: { id: 3, name: 'Pet 3', categoryId: 1, status: 'available' } });
    await sleep(50);
    expect(warnings).not.toHaveBeenCalled();
  });

  it('starts a stream without a position after every event committed before it opened, read by the feed or not', async () => {
    // The feed runs for another stream, and has likely not read the three created just before the second opens.
    const running = await opened(undefined, new Recorded());
    await create(3);
    const stream = new Recorded();
    const second = await opened(undefined, stream);
    await create();
    await untilHolds(() => stream.events.length === 1, 'the next event');
    // And once the feed has stopped for want of streams, forgetting where it was.
    const paused = jest.spyOn(Repeating.prototype, 'stop');
    running.close();
    second.close();
    await untilHolds(() => paused.mock.calls.length > 0, 'the feed to pause');
    await create(2);
    const afterPause = new Recorded();
    await opened(undefined, afterPause);
    await create();
    await untilHolds(() => afterPause.events.length === 1, 'the next event after a pause');
    await sleep(50);
    expect(stream.positions).toEqual([4]);
    expect(afterPause.positions).toEqual([7]);
  });

  it('reads the bounds twice for forty streams that open at once without a position: the one under way, then one for the rest', async () => {
    await opened(undefined, new Recorded());
    await create(2);
    const bounds = jest.spyOn(log, 'bounds');
    const opens = await Promise.all(Array.from({ length: 40 }, () => opened(undefined, new Recorded())));
    expect(opens.map(({ from }) => from)).toEqual(Array(40).fill(2));
    expect(bounds).toHaveBeenCalledTimes(2);
  });

  it('starts no stream at a read of the bounds that began before it asked', async () => {
    await opened(undefined, new Recorded());
    const bounds = log.bounds.bind(log);
    let read = false;
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => (release = resolve));
    jest.spyOn(log, 'bounds').mockImplementationOnce(async () => {
      const answer = await bounds();
      read = true;
      await held;
      return answer;
    });
    const first = opened(undefined, new Recorded());
    await untilHolds(() => read, 'the first read');
    // Committed after the first read, and before the second stream asked: the second must start after it.
    const position = await create();
    const second = opened(undefined, new Recorded());
    release();
    expect([(await first).from, (await second).from]).toEqual([0, position]);
  });

  it('resumes after a position: from the log when it is further back than the recent events, else from them', async () => {
    await create(12);
    const fromLog = new Recorded();
    await opened(1, fromLog);
    expect(fromLog.positions).toEqual(range(1, 12));
    // The feed now runs from 12; it keeps what it reads from there.
    await create(8);
    await untilHolds(() => fromLog.events.length === 19, 'the feed read the new events');
    const read = jest.spyOn(log, 'readAfter');
    const bounds = jest.spyOn(log, 'bounds');
    // The recent events are the last five read: 16 to 20, after 15.
    const fromRecent = new Recorded();
    await opened(16, fromRecent);
    expect(fromRecent.positions).toEqual(range(16, 20));
    const fromTheirStart = new Recorded();
    await opened(15, fromTheirStart);
    expect(fromTheirStart.positions).toEqual(range(15, 20));
    const atTheEnd = new Recorded();
    await opened(20, atTheEnd);
    expect(read.mock.calls.filter(([after]) => after !== 20)).toEqual([]);
    expect(bounds).not.toHaveBeenCalled();
    const justBeyond = new Recorded();
    await opened(14, justBeyond);
    expect(justBeyond.positions).toEqual(range(14, 20));
    expect(read.mock.calls.filter(([after]) => after === 14)).toHaveLength(1);
    await create();
    await untilHolds(() => atTheEnd.events.length === 1 && fromRecent.events.length === 5, 'the next event on both');
    expect(atTheEnd.positions).toEqual([21]);
  });

  it('answers a reset naming the oldest position kept when events after the one asked for were purged, or never given', async () => {
    await create(4);
    await dialect.transactions.run(() => dataSource.query('DELETE FROM pet_events WHERE position <= 2'));
    expect(await feed.open(0, new Recorded())).toEqual({ kind: 'reset', oldest: 3 });
    expect(feed.size).toBe(0);
    expect(await feed.open(1, new Recorded())).toEqual({ kind: 'reset', oldest: 3 });
    expect(await feed.open(5, new Recorded())).toEqual({ kind: 'reset', oldest: 3 });
    const justBefore = new Recorded();
    await opened(2, justBefore);
    expect(justBefore.positions).toEqual([3, 4]);
    await dialect.transactions.run(() => dataSource.query('DELETE FROM pet_events'));
    // Nothing kept: only the last position given resumes; the next one is the oldest there will be.
    feed.beforeApplicationShutdown();
    feed = new EventFeed(log, timing);
    expect(await feed.open(3, new Recorded())).toEqual({ kind: 'reset', oldest: 5 });
    const atTheLast = new Recorded();
    await opened(4, atTheLast);
    await create();
    await untilHolds(() => atTheLast.events.length === 1, 'the next event');
    expect(atTheLast.positions).toEqual([5]);
  });

  it('lets a stream go when it can take no more, and goes on delivering to the others', async () => {
    const slow = new Recorded(2);
    const other = new Recorded();
    await opened(0, slow);
    await opened(0, other);
    await create(5);
    await untilHolds(() => other.events.length === 5 && slow.closedFor !== undefined, 'the slow stream let go');
    expect(slow.closedFor).toBe('behind');
    expect(feed.size).toBe(1);
    await create();
    await untilHolds(() => other.events.length === 6, 'the next event');
    // What the slow stream had sent is where it resumes: nothing after it is lost.
    const resumed = new Recorded();
    await opened(slow.positions[1], resumed);
    expect(resumed.positions).toEqual(range(slow.positions[1], 6));
  });

  it('ends every stream on shutdown, and opens none after', async () => {
    const streams = [new Recorded(), new Recorded()];
    for (const stream of streams) await opened(undefined, stream);
    feed.beforeApplicationShutdown();
    expect(streams.map(({ closedFor }) => closedFor)).toEqual(['stopping', 'stopping']);
    expect(feed.size).toBe(0);
    await expect(feed.open(undefined, new Recorded())).rejects.toThrow('stopping');
  });

  it('reads the log only while a stream is open', async () => {
    const read = jest.spyOn(log, 'readAfter');
    await sleep(50);
    expect(read).not.toHaveBeenCalled();
    const stream = await opened(undefined, new Recorded());
    await untilHolds(() => read.mock.calls.length >= 2, 'the feed reading');
    stream.close();
    await sleep(50);
    const calls = read.mock.calls.length;
    await sleep(100);
    expect(read.mock.calls.length).toBe(calls);
  });

  it('keeps streams open while the database cannot be read, says so once, and delivers when it can again', async () => {
    const warnings = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const stream = new Recorded();
    await opened(undefined, stream);
    const read = jest.spyOn(log, 'readAfter').mockRejectedValue(new Error('database away'));
    await create(2);
    await untilHolds(() => read.mock.calls.length >= 3, 'several failed reads');
    expect(warnings.mock.calls).toEqual([['Events not read; streams wait for the database: database away']]);
    read.mockRestore();
    await untilHolds(() => stream.events.length === 2, 'the events after');
    expect(stream.positions).toEqual([1, 2]);
    expect(stream.closedFor).toBeUndefined();
  });

  it('delivers nothing more to a stream closed while its backlog was being read', async () => {
    await create(12);
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const readAfter = log.readAfter.bind(log);
    jest.spyOn(log, 'readAfter').mockImplementation(async (after, limit) => {
      const page = await readAfter(after, limit);
      if (after === 3) await held;
      return page;
    });
    const stream = new Recorded();
    const opening = feed.open(0, stream);
    await untilHolds(() => stream.events.length === 3, 'the first page');
    feed.beforeApplicationShutdown();
    release();
    await opening;
    expect(stream.positions).toEqual([1, 2, 3]);
    expect(stream.closedFor).toBe('stopping');
  });

  it('reads the log at once when woken, every page of what came, and catches a stream up that is ahead of it', async () => {
    const slowFeed = new EventFeed(log, { pollMs: 3_600_000, pageSize: 3, recent: 5 });
    try {
      await create(2);
      const first = new Recorded();
      await slowFeed.open(undefined, first);
      await create(7);
      // The feed has read nothing since 2; this stream reads its backlog past where the feed is, and joins it.
      const ahead = new Recorded();
      await slowFeed.open(0, ahead);
      expect(ahead.positions).toEqual(range(0, 9));
      const read = jest.spyOn(log, 'readAfter');
      slowFeed.wake();
      await untilHolds(() => first.events.length === 7, 'the woken read');
      expect(first.positions).toEqual(range(2, 9));
      expect(read.mock.calls.map(([after]) => after)).toEqual([2, 5, 8]);
      await create();
      slowFeed.wake();
      await untilHolds(() => ahead.events.length === 10, 'the next event on the stream that was ahead');
      expect(ahead.positions).toEqual(range(0, 10));
    } finally {
      slowFeed.beforeApplicationShutdown();
    }
  });

  it('rejects an open whose backlog cannot be read, keeping nothing of it', async () => {
    await create(12);
    jest.spyOn(log, 'readAfter').mockRejectedValue(new Error('database away'));
    await expect(feed.open(0, new Recorded())).rejects.toThrow('database away');
    expect(feed.size).toBe(0);
  });

  it('gives every stream exactly the events after its position, in order, while pets are created and streams open and close', async () => {
    const streams: Array<{ after: number; atOpen: number; from?: number; recorded: Recorded; close?: () => void; closedAt?: number }> = [];
    let writing = true;
    let committed = 0;
    const writer = (async () => {
      for (let batch = 0; batch < 60; batch += 1) {
        committed = await create(1 + (batch % 4));
        if (batch % 3 === 0) await sleep(batch % 2 === 0 ? 0 : 12);
      }
      writing = false;
    })();
    // Streams open at once, each after a position picked from what was created so far (the start, far back, close
    // behind, the end, or none), and some close after a while.
    let turn = 0;
    while (writing) {
      turn += 1;
      const choices = [0, Math.floor(committed / 2), Math.max(0, committed - 2), committed, undefined];
      const after = choices[turn % choices.length];
      const recorded = new Recorded();
      const stream = { after: after ?? -1, atOpen: committed, from: undefined as number | undefined, recorded, close: undefined as undefined | (() => void), closedAt: undefined as number | undefined };
      streams.push(stream);
      void feed.open(after, recorded).then((result) => {
        if (result.kind !== 'stream') {
          recorded.closedFor = 'behind';
          throw new Error(`a reset for ${after}`);
        }
        stream.close = result.close;
        stream.from = result.from;
        if (turn % 4 === 0) setTimeout(() => {
          stream.closedAt = recorded.events.length;
          result.close();
        }, 15);
      });
      await sleep(3);
    }
    await writer;
    const end = created;
    await untilHolds(() => streams.every(({ recorded, closedAt, from }) => closedAt !== undefined || (recorded.positions.at(-1) ?? from) === end), 'every open stream at the end');

    for (const { after, atOpen, from, recorded, closedAt } of streams) {
      const positions = recorded.positions;
      // Without a position, it starts after the last event committed when it opened, and says where that was.
      if (from === undefined) throw new Error('a stream never opened');
      // Given none, every create answered before it opened is behind it.
      if (after === -1) expect(from).toBeGreaterThanOrEqual(atOpen);
      else expect(from).toBe(after);
      expect(positions).toEqual(range(from, from + positions.length));
      if (closedAt === undefined) expect(positions.at(-1) ?? from).toBe(end);
      for (const event of recorded.events) expect(event.pet.name).toBe(`Pet ${event.pet.id}`);
    }
  }, 60_000);
});
