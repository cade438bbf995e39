import { setTimeout as sleep } from 'node:timers/promises';
import { nameSearchKey } from '@petstore/contract';
import { DataSource } from 'typeorm';
import { SqliteDialect } from '../src/app/database/sqlite/sqlite.dialect';
import type { PetEventLog, LoggedEvent } from '../src/app/events/log/pet-event-log';
import { PostgresPetEventLog } from '../src/app/events/log/postgres-pet-event-log';
import { SqlitePetEventLog } from '../src/app/events/log/sqlite-pet-event-log';
import { EventFeed } from '../src/app/events/stream/event-feed';
import { connectPostgres } from './support/postgres-connection';
import { createTestDatabase, TEST_DATABASE, type TestDatabase } from './support/test-database';

// The event log's statements on the database this leg runs on: each log is another instance's (a connection pool of
// its own), each writer another instance's connection, inserting pets as creates do (the trigger writes the events).

/** A connection of another instance: its event log, and plain statements in transactions of its own. */
interface Instance {
  log: PetEventLog;
  query: (sql: string, values?: unknown[]) => Promise<unknown>;
  /** Inserts pets in one transaction, waiting `holdMs` before it ends; `rollBack` ends it so. */
  insertPets: (names: string[], options?: { holdMs?: number; rollBack?: boolean }) => Promise<void>;
  close: () => Promise<void>;
}

const placeholders = (count: number, from = 1) =>
  Array.from({ length: count }, (_, index) => (TEST_DATABASE === 'postgres' ? `$${from + index}` : '?')).join(', ');

async function connect(database: TestDatabase): Promise<Instance> {
  let dataSource: DataSource;
  let log: PetEventLog;
  let begin: string;
  // SQLite's one connection runs a transaction at a time: the service's writes take their turn in its queue.
  let inTurn = <T>(work: () => Promise<T>) => work();
  if (TEST_DATABASE === 'postgres') {
    ({ dataSource } = await connectPostgres(database));
    log = new PostgresPetEventLog(dataSource);
    begin = 'BEGIN';
  } else {
    const dialect = new SqliteDialect({ type: 'sqlite', path: database.url.replace(/^sqlite:/, ''), poolSize: 1, connectTimeoutMs: 10_000, statementTimeoutMs: 10_000 });
    dataSource = await new DataSource(await dialect.options()).initialize();
    await dialect.migrate(dataSource);
    log = new SqlitePetEventLog(dataSource, dialect.transactions);
    begin = 'BEGIN IMMEDIATE';
    inTurn = (work) => dialect.transactions.run(work);
  }
  return {
    log,
    query: (sql, values) => inTurn(() => dataSource.query(sql, values)),
    insertPets: (names, { holdMs = 0, rollBack = false } = {}) =>
      inTurn(async () => {
        const runner = dataSource.createQueryRunner();
        try {
          await runner.query(begin);
          const rows = names.map((_, index) => `(${placeholders(4, index * 4 + 1)})`).join(', ');
          await runner.query(`INSERT INTO pets (name, category_id, status, name_key) VALUES ${rows}`, names.flatMap((name) => [name, 3, 'available', nameSearchKey(name)]));
          if (holdMs > 0) await sleep(holdMs);
          await runner.query(rollBack ? 'ROLLBACK' : 'COMMIT');
        } finally {
          await runner.release();
        }
      }),
    close: () => dataSource.destroy(),
  };
}

/** Every event after `after`, read a page at a time as the stream's reader does. */
async function readAll(log: PetEventLog, after = 0, page = 7): Promise<LoggedEvent[]> {
  const events: LoggedEvent[] = [];
  for (;;) {
    const read = await log.readAfter(events.at(-1)?.position ?? after, page);
    events.push(...read);
    if (read.length < page) return events;
  }
}

describe('the pet event log', () => {
  let database: TestDatabase;
  let instances: Instance[];

  beforeEach(async () => {
    database = await createTestDatabase();
    instances = [await connect(database)];
  });

  afterEach(async () => {
    for (const instance of instances) await instance.close();
    await database.drop();
  });

  const another = async () => {
    const instance = await connect(database);
    instances.push(instance);
    return instance;
  };

  it('logs pet.created for every pet inserted, in order, with the pet as stored and the time it happened', async () => {
    const [instance] = instances;
    const before = Date.now();
    await instance.insertPets(['Rex', 'Tom']);
    await instance.insertPets(['Kit']);
    const events = await readAll(instance.log);
    expect(events.map(({ position, type, pet }) => ({ position, type, pet }))).toEqual([
      { position: 1, type: 'pet.created', pet: { id: 1, name: 'Rex', categoryId: 3, status: 'available' } },
      { position: 2, type: 'pet.created', pet: { id: 2, name: 'Tom', categoryId: 3, status: 'available' } },
      { position: 3, type: 'pet.created', pet: { id: 3, name: 'Kit', categoryId: 3, status: 'available' } },
    ]);
    for (const { createdAt } of events) expect(createdAt).toBeGreaterThanOrEqual(before - 1_000);
    expect(await instance.log.readAfter(1, 1)).toEqual([events[1]]);
    expect(await instance.log.readAfter(3, 10)).toEqual([]);
    expect(await instance.log.bounds()).toEqual({ oldest: 1, last: 3 });
  });

  it('counts in its bounds every event committed before, read or not', async () => {
    const [instance] = instances;
    await instance.insertPets(['Rex', 'Tom']);
    expect(await (await another()).log.bounds()).toEqual({ oldest: 1, last: 2 });
  });

  it('knows an empty log as holding nothing, with no position given', async () => {
    expect(await instances[0].log.bounds()).toEqual({ oldest: null, last: 0 });
    expect(await instances[0].log.readAfter(0, 10)).toEqual([]);
  });

  it('logs nothing for pets whose transaction rolled back, and leaves no gap in the positions', async () => {
    const [instance] = instances;
    await instance.insertPets(['Gone'], { rollBack: true });
    await instance.insertPets(['Kept']);
    expect((await readAll(instance.log)).map(({ position, pet }) => [position, pet.name])).toEqual([[1, 'Kept']]);
  });

  it('reads, on every instance, each event committed before the read began', async () => {
    const [instance] = instances;
    const others = [await another(), await another()];
    for (let round = 1; round <= 5; round += 1) {
      await instance.insertPets([`Round ${round}`]);
      // Every instance at once, each also giving positions: none returns before it has the new event.
      const reads = await Promise.all([instance, ...others].map(({ log }) => log.readAfter(round - 1, 10)));
      for (const read of reads) expect(read.map(({ position, pet }) => [position, pet.name])).toEqual([[round, `Round ${round}`]]);
    }
  });

  it('purges events older than the cut-off, and never gives a purged position again', async () => {
    const [instance] = instances;
    await instance.insertPets(['Old', 'Older']);
    await readAll(instance.log);
    await instance.query('UPDATE pet_events SET created_at = 1000');
    await instance.insertPets(['New']);
    await instance.log.purge(1_000);
    expect((await readAll(instance.log)).map(({ position, pet }) => [position, pet.name])).toEqual([[3, 'New']]);
    expect(await instance.log.bounds()).toEqual({ oldest: 3, last: 3 });

    await instance.query('UPDATE pet_events SET created_at = 1000');
    await instance.log.purge(1_000);
    expect(await instance.log.bounds()).toEqual({ oldest: null, last: 3 });
    await instance.insertPets(['Newer']);
    expect((await readAll(instance.log, 3)).map(({ position, pet }) => [position, pet.name])).toEqual([[4, 'Newer']]);
  });

  it('never skips an event whose transaction started first and committed last', async () => {
    const [first] = instances;
    const second = await another();
    // The first transaction inserts (its pet takes id 1) and holds; the second inserts after it and commits first.
    const late = first.insertPets(['Started first'], { holdMs: 400 });
    await sleep(100);
    await second.insertPets(['Committed first']);
    const seenBefore = await readAll(second.log);
    await late;
    const seenAfter = await readAll(second.log, seenBefore.at(-1)?.position ?? 0);
    const seen = [...seenBefore, ...seenAfter];
    expect(seen.map(({ pet }) => pet.name).sort()).toEqual(['Committed first', 'Started first']);
    expect(seen.map(({ position }) => position)).toEqual([1, 2]);
  }, 30_000);

  it('gives every committed pet one position, gapless, the same on every instance, read while many write at once', async () => {
    const writers = [instances[0], await another(), await another()];
    const readers = [instances[0].log, (await another()).log];
    const committed = new Set<string>();
    const rolledBack = new Set<string>();
    let writing = true;
    // Each reader reads after the last position it saw, as a stream's reader does, while the writers run; its read
    // after the last commit sees every event.
    const reading = readers.map(async (log) => {
      const seen: LoggedEvent[] = [];
      for (;;) {
        const done = !writing;
        seen.push(...(await readAll(log, seen.at(-1)?.position ?? 0, 5)));
        if (done) return seen;
        await sleep(5);
      }
    });
    await Promise.all(
      writers.map(async (writer, w) => {
        for (let batch = 0; batch < 12; batch += 1) {
          const names = Array.from({ length: 1 + ((w + batch) % 3) }, (_, i) => `w${w}-b${batch}-p${i}`);
          // Some transactions stay open while others commit past them; one in five rolls back.
          const rollBack = (w * 12 + batch) % 5 === 4;
          await writer.insertPets(names, { holdMs: ((w * 7 + batch * 13) % 4) * 15, rollBack });
          for (const name of names) (rollBack ? rolledBack : committed).add(name);
        }
      }),
    );
    writing = false;
    const [one, other] = await Promise.all(reading);

    expect(one.map(({ pet }) => pet.name).sort()).toEqual([...committed].sort());
    expect(one.map(({ position }) => position)).toEqual(one.map((_, index) => index + 1));
    expect(other).toEqual(one);
    expect(one.filter(({ pet }) => rolledBack.has(pet.name))).toEqual([]);
  }, 60_000);

  it("streams every pet created on either instance to each instance's subscribers, once and in the same order", async () => {
    const writers = [instances[0], await another()];
    const feeds = writers.map(({ log }) => new EventFeed(log, { pollMs: 20, pageSize: 10, recent: 50 }));
    const received = feeds.map(() => [[], []] as LoggedEvent[][]);
    try {
      for (const [f, feed] of feeds.entries()) {
        for (const events of received[f]) await feed.open(0, { deliver: (batch) => (events.push(...batch), true), closed: () => undefined });
      }
      const names: string[] = [];
      await Promise.all(
        writers.map(async (writer, w) => {
          for (let batch = 0; batch < 15; batch += 1) {
            const batchNames = [`i${w}-b${batch}-a`, `i${w}-b${batch}-b`];
            await writer.insertPets(batchNames, { holdMs: (batch + w) % 3 === 0 ? 20 : 0 });
            names.push(...batchNames);
          }
        }),
      );
      const all = received.flat();
      const deadline = Date.now() + 30_000;
      while (all.some((events) => events.length < names.length) && Date.now() < deadline) await sleep(20);

      const [first, ...others] = all;
      expect(first.map(({ pet }) => pet.name).sort()).toEqual([...names].sort());
      expect(first.map(({ position }) => position)).toEqual(names.map((_, index) => index + 1));
      for (const events of others) expect(events).toEqual(first);
    } finally {
      for (const feed of feeds) feed.beforeApplicationShutdown();
    }
  }, 60_000);
});
