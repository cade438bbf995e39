import { Logger } from '@nestjs/common';
import type { DataSource, Migration } from 'typeorm';
import { ApiException } from '../errors/api-exception';
import { DatabaseConnection } from './database-connection';
import type { DatabaseDialect } from './database-dialect';
import type { Heartbeat } from './database-watch';
import type { MigrationProgress } from './migrations/migration-progress';

/** A dialect with no watch, no deadline and nothing to adapt (as SQLite's), with `overrides` on top. */
const dialectWith = (overrides: Partial<Record<keyof DatabaseDialect, unknown>> = {}) =>
  ({ heartbeat: () => undefined, evictConnections: jest.fn(), operationDeadlineMs: () => undefined, adaptTo: () => undefined, ...overrides }) as unknown as DatabaseDialect;

describe(DatabaseConnection.name, () => {
  describe('close', () => {
    it('lets the operations under way finish before it closes the database, and refuses later ones', async () => {
      const destroy = jest.fn(async () => undefined);
      const sut = new DatabaseConnection({ isInitialized: true, destroy } as unknown as DataSource, dialectWith());
      sut.ready = true;
      let commit!: (outcome: string) => void;
      const write = sut.run(() => new Promise<string>((resolve) => (commit = resolve)));

      const closed = sut.close();
      await new Promise((resolve) => setImmediate(resolve));
      expect(destroy).not.toHaveBeenCalled();
      await expect(sut.run(async () => 'late')).rejects.toBeInstanceOf(ApiException);

      commit('committed');
      await expect(write).resolves.toBe('committed');
      await closed;
      expect(destroy).toHaveBeenCalledTimes(1);
      await sut.close();
      expect(destroy).toHaveBeenCalledTimes(1);
    });
  });

  describe('connecting', () => {
    it('tries again at once, with the options the dialect changed, when a failure taught the dialect something', async () => {
      const refused = new Error('unsupported startup parameter: statement_timeout');
      const initialize = jest.fn().mockRejectedValueOnce(refused).mockResolvedValue(undefined);
      const dataSource = { isInitialized: false, initialize, destroy: jest.fn() } as unknown as DataSource;
      const dialect = dialectWith({
        adaptTo: jest.fn((_: DataSource, failure: unknown) => (failure === refused ? 'connecting without the session settings' : undefined)),
        ensureDurability: jest.fn(async () => 'durable'),
        migrate: jest.fn(async () => []),
      });
      const sut = new DatabaseConnection(dataSource, dialect);
      await sut.onModuleInit();
      expect(initialize).toHaveBeenCalledTimes(2);
      expect(dialect.adaptTo).toHaveBeenCalledWith(dataSource, refused);
      expect(sut.ready).toBe(true);
    });
  });

  describe('a database reached over the network', () => {
    const connected = { isInitialized: true, destroy: jest.fn(async () => undefined) } as unknown as DataSource;
    const started: DatabaseConnection[] = [];
    const connect = async (dialect: DatabaseDialect) => {
      const sut = new DatabaseConnection(connected, Object.assign(dialect, { ensureDurability: async () => 'durable', migrate: async () => [] }));
      started.push(sut);
      await sut.onModuleInit();
      return sut;
    };
    afterEach(async () => {
      for (const sut of started.splice(0)) await sut.close();
      jest.useRealTimers();
      jest.restoreAllMocks();
    });

    it('answers 503 at the dialect deadline when an operation hangs, whatever the driver does', async () => {
      const sut = await connect(dialectWith({ operationDeadlineMs: () => 20 }));
      let finish!: () => void;
      await expect(sut.run(() => new Promise<void>((resolve) => (finish = resolve)))).rejects.toMatchObject({
        code: 'service_unavailable',
        headers: { 'retry-after': '1' },
      });
      // Closing still waits for it: it may yet commit.
      finish();
    });

    it('answers 503 at once, without running the operation, from a missed heartbeat until one is answered, and evicts the pool once', async () => {
      jest.useFakeTimers();
      let answering = true;
      const heartbeat: Heartbeat = { beat: async () => (answering ? undefined : Promise.reject(new Error('no answer to a heartbeat'))), stop: jest.fn() };
      const dialect = dialectWith({ heartbeat: () => heartbeat });
      const sut = await connect(dialect);
      const operation = jest.fn(async () => 'rows');

      answering = false;
      await jest.advanceTimersByTimeAsync(600);
      expect(sut.serving).toBe(false);
      await expect(sut.run(operation)).rejects.toMatchObject({ code: 'service_unavailable' });
      expect(() => sut.assertServing()).toThrow(ApiException);
      expect(operation).not.toHaveBeenCalled();
      await jest.advanceTimersByTimeAsync(2_000);
      expect(dialect.evictConnections).toHaveBeenCalledTimes(1);

      answering = true;
      await jest.advanceTimersByTimeAsync(600);
      expect(sut.serving).toBe(true);
      await expect(sut.run(operation)).resolves.toBe('rows');
      // The heartbeat's verdict, without a query through the pool (this data source has none to answer one).
      await expect(sut.answers()).resolves.toBe(true);
    });

    // TypeORM's error for a write a demoted primary refused, as node-pg reports it.
    const refusedAsReadOnly = () =>
      Promise.reject(
        Object.assign(new Error('cannot execute INSERT in a read-only transaction'), {
          name: 'QueryFailedError',
          code: '25006',
          driverError: { code: '25006', severity: 'ERROR' },
        }),
      );

    it.each(['run', 'runWrite'] as const)(
      'answers a write refused as read-only (SQLSTATE 25006) through %s with the read-only 503, then refuses writes at once and goes on reading until a heartbeat finds it writable',
      async (through) => {
        jest.useFakeTimers();
        let writable = true;
        const heartbeat: Heartbeat = { beat: async () => ({ writable }), stop: jest.fn() };
        const dialect = dialectWith({ heartbeat: () => heartbeat });
        const sut = await connect(dialect);
        const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);

        writable = false;
        await expect(sut[through](refusedAsReadOnly)).rejects.toMatchObject({
          status: 503,
          code: 'service_unavailable',
          message: 'The database accepts no writes right now (a failover may be under way); retry shortly.',
          headers: { 'retry-after': '1' },
        });
        expect({ serving: sut.serving, writable: sut.writable, evictions: jest.mocked(dialect.evictConnections).mock.calls.length }).toEqual({
          serving: true,
          writable: false,
          evictions: 1,
        });
        expect(warn.mock.calls).toEqual([
          ['Database read-only (a write was refused: a standby, or a primary being demoted); creates answer 503 until it takes writes, reads go on'],
        ]);
        const write = jest.fn(async () => 'created');
        await expect(sut.runWrite(write)).rejects.toMatchObject({ status: 503, headers: { 'retry-after': '1' } });
        expect(write).not.toHaveBeenCalled();
        await expect(sut.run(async () => 'rows')).resolves.toBe('rows');

        writable = true;
        await jest.advanceTimersByTimeAsync(600);
        await expect(sut.runWrite(write)).resolves.toBe('created');
      },
    );
  });

  describe('its lifecycle', () => {
    let logged: string[];
    beforeEach(() => {
      jest.useFakeTimers();
      logged = [];
      jest.spyOn(Logger.prototype, 'log').mockImplementation((message: unknown) => void logged.push(`log: ${String(message)}`));
      jest.spyOn(Logger.prototype, 'warn').mockImplementation((message: unknown) => void logged.push(`warn: ${String(message)}`));
    });
    afterEach(() => {
      jest.useRealTimers();
      jest.restoreAllMocks();
    });

    /** A data source that fails to connect with each of `failures` in turn, then connects. */
    const dataSourceFailing = (...failures: Error[]) => {
      const dataSource = { isInitialized: false, destroy: jest.fn(async () => void (dataSource.isInitialized = false)), initialize: jest.fn() };
      for (const failure of failures) dataSource.initialize.mockRejectedValueOnce(failure);
      dataSource.initialize.mockImplementation(async () => void (dataSource.isInitialized = true));
      return dataSource;
    };
    const durableDialect = (migrate: (dataSource: DataSource, progress: MigrationProgress) => Promise<Migration[]> = async () => []) =>
      dialectWith({ ensureDurability: jest.fn(async () => 'durable'), migrate: jest.fn(migrate) });

    it('is not ready before it connects: reads and writes answer that the database is not reachable, without running', async () => {
      const sut = new DatabaseConnection(dataSourceFailing() as unknown as DataSource, durableDialect());
      expect({ ready: sut.ready, serving: sut.serving, writable: sut.writable }).toEqual({ ready: false, serving: false, writable: false });
      const operation = jest.fn(async () => 'rows');
      const unreachable = { status: 503, message: 'The database is not reachable right now; retry shortly.' };
      await expect(sut.run(operation)).rejects.toMatchObject(unreachable);
      await expect(sut.runWrite(operation)).rejects.toMatchObject(unreachable);
      expect(operation).not.toHaveBeenCalled();
      await expect(sut.answers()).resolves.toBe(false);
    });

    it('says it is ready, how and after how many migrations', async () => {
      const migrations = [{ name: 'CreatePets' }, { name: 'AddNameSearch' }] as Migration[];
      const sut = new DatabaseConnection(dataSourceFailing() as unknown as DataSource, durableDialect(async () => migrations));
      await sut.onModuleInit();
      expect(sut.ready).toBe(true);
      expect(logged).toEqual(['log: Database ready (durable); 2 migration(s) applied']);
      await sut.onApplicationShutdown();
      expect(sut.ready).toBe(false);
    });

    it('tries again after 0.5, 1, 2 and then every 5 s, closing what a failed attempt opened, and says why', async () => {
      const down = new Error('connect ECONNREFUSED 127.0.0.1:5432');
      const dataSource = dataSourceFailing(down, down, down, down, down);
      const dialect = durableDialect();
      jest.mocked(dialect.ensureDurability).mockRejectedValueOnce(new Error('SQLite durability not in force'));
      const sut = new DatabaseConnection(dataSource as unknown as DataSource, dialect);
      await sut.onModuleInit();
      expect(dataSource.initialize).toHaveBeenCalledTimes(1);
      const retry = (sut as unknown as { retry: NodeJS.Timeout }).retry;
      expect(retry.hasRef()).toBe(false);
      for (const [delay, attempts] of [[500, 2], [1_000, 3], [2_000, 4], [5_000, 5], [5_000, 6], [5_000, 7]]) {
        await jest.advanceTimersByTimeAsync(delay - 1);
        expect(dataSource.initialize).toHaveBeenCalledTimes(attempts - 1);
        await jest.advanceTimersByTimeAsync(1);
        expect(dataSource.initialize).toHaveBeenCalledTimes(attempts);
      }
      expect(sut.ready).toBe(true);
      // The sixth attempt connected and was found not durable: what it opened is closed before the next.
      expect(dataSource.destroy).toHaveBeenCalledTimes(1);
      expect(logged).toEqual([
        'warn: Database not ready (connect ECONNREFUSED 127.0.0.1:5432); trying again in 500 ms',
        'warn: Database not ready (connect ECONNREFUSED 127.0.0.1:5432); trying again in 1000 ms',
        'warn: Database not ready (connect ECONNREFUSED 127.0.0.1:5432); trying again in 2000 ms',
        'warn: Database not ready (connect ECONNREFUSED 127.0.0.1:5432); trying again in 5000 ms',
        'warn: Database not ready (connect ECONNREFUSED 127.0.0.1:5432); trying again in 5000 ms',
        'warn: Database not ready (SQLite durability not in force); trying again in 5000 ms',
        'log: Database ready (durable); 0 migration(s) applied',
      ]);
      await sut.close();
    });

    it('says what the dialect changed when it adapted to a failure', async () => {
      const refused = new Error('unsupported startup parameter: statement_timeout');
      const dialect = Object.assign(durableDialect(), { adaptTo: (_: DataSource, failure: unknown) => (failure === refused ? 'connecting without the session settings' : undefined) });
      const sut = new DatabaseConnection(dataSourceFailing(refused) as unknown as DataSource, dialect);
      await sut.onModuleInit();
      expect(logged).toEqual(['warn: connecting without the session settings', 'log: Database ready (durable); 0 migration(s) applied']);
      await sut.close();
    });

    it('stops trying once closed, and closes nothing it never opened', async () => {
      const down = new Error('connect ECONNREFUSED 127.0.0.1:5432');
      const dataSource = dataSourceFailing(down, down);
      const sut = new DatabaseConnection(dataSource as unknown as DataSource, durableDialect());
      await sut.onModuleInit();
      await sut.close();
      await jest.advanceTimersByTimeAsync(60_000);
      expect(dataSource.initialize).toHaveBeenCalledTimes(1);
      expect(dataSource.destroy).not.toHaveBeenCalled();
    });

    it('lets a connection attempt under way at a stop end without retrying or warning', async () => {
      let fail!: (error: Error) => void;
      const dataSource = dataSourceFailing();
      dataSource.initialize.mockImplementationOnce(() => new Promise((_, reject) => (fail = reject)));
      const sut = new DatabaseConnection(dataSource as unknown as DataSource, durableDialect());
      const starting = sut.onModuleInit();
      const closed = sut.close();
      fail(new Error('Connection terminated'));
      await Promise.all([starting, closed]);
      await jest.advanceTimersByTimeAsync(60_000);
      expect(dataSource.initialize).toHaveBeenCalledTimes(1);
      expect(logged).toEqual([]);
    });

    it('stops a migration under way at its next step, and waits for it before closing the database', async () => {
      let step!: () => void;
      const seen: string[] = [];
      const dialect = durableDialect(
        (_, progress) =>
          new Promise((resolve, reject) => {
            step = () => {
              try {
                progress.begin('Search keys', 50_000);
                resolve([]);
              } catch (error) {
                seen.push((error as Error).message);
                reject(error);
              }
            };
          }),
      );
      const dataSource = dataSourceFailing();
      const sut = new DatabaseConnection(dataSource as unknown as DataSource, dialect);
      void sut.onModuleInit();
      await jest.advanceTimersByTimeAsync(0);
      const closed = sut.close();
      await jest.advanceTimersByTimeAsync(0);
      expect(dataSource.destroy).not.toHaveBeenCalled();
      step();
      await closed;
      expect(seen).toEqual(['The migration was stopped with the process; the next start resumes it']);
      expect(dataSource.destroy).toHaveBeenCalledTimes(1);
    });

    it('closes what was registered to close first, after the operations under way and before the database', async () => {
      const order: string[] = [];
      const dataSource = dataSourceFailing();
      dataSource.destroy.mockImplementation(async () => void order.push('database'));
      const sut = new DatabaseConnection(dataSource as unknown as DataSource, durableDialect());
      await sut.onModuleInit();
      sut.beforeClose(async () => void order.push('readers'));
      let finish!: () => void;
      const operation = sut.run(() => new Promise<void>((resolve) => (finish = resolve)).then(() => void order.push('operation')));
      const closed = sut.close();
      await jest.advanceTimersByTimeAsync(0);
      expect(order).toEqual([]);
      finish();
      await Promise.all([operation, closed]);
      expect(order).toEqual(['operation', 'readers', 'database']);
    });

    it('forgets an operation once it settled', async () => {
      const sut = new DatabaseConnection(dataSourceFailing() as unknown as DataSource, durableDialect());
      await sut.onModuleInit();
      await sut.run(async () => 'rows');
      await expect(sut.run(async () => Promise.reject(new TypeError('x is not a function')))).rejects.toThrow(TypeError);
      expect((sut as unknown as { inFlight: Set<unknown> }).inFlight.size).toBe(0);
      await sut.close();
    });

    it('answers a failure of ours as it is, and a database that cannot serve with the 503, leaving writes open', async () => {
      const sut = new DatabaseConnection(dataSourceFailing() as unknown as DataSource, durableDialect());
      await sut.onModuleInit();
      const bug = new TypeError('x is not a function');
      await expect(sut.runWrite(() => Promise.reject(bug))).rejects.toBe(bug);
      await expect(sut.runWrite(() => Promise.reject(Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' })))).rejects.toMatchObject({
        status: 503,
        message: 'The database is not reachable right now; retry shortly.',
      });
      expect(sut.writable).toBe(true);
      await sut.close();
    });
  });

  describe('ping and answers', () => {
    afterEach(() => jest.useRealTimers());
    const connectedTo = (query: () => Promise<unknown>) => {
      const sut = new DatabaseConnection({ isInitialized: true, query, destroy: async () => undefined } as unknown as DataSource, dialectWith());
      sut.ready = true;
      return sut;
    };

    it('pings with SELECT 1, true when answered and false when refused, leaving no timer behind', async () => {
      jest.useFakeTimers();
      const query = jest.fn(async () => [{ '1': 1 }]);
      await expect(connectedTo(query).ping()).resolves.toBe(true);
      expect(query).toHaveBeenCalledWith('SELECT 1');
      expect(jest.getTimerCount()).toBe(0);
      await expect(connectedTo(async () => Promise.reject(new Error('Connection terminated'))).ping()).resolves.toBe(false);
      expect(jest.getTimerCount()).toBe(0);
    });

    it('pings false when the answer takes over a second', async () => {
      jest.useFakeTimers();
      let answer: boolean | undefined;
      void connectedTo(() => new Promise(() => undefined))
        .ping()
        .then((answered) => (answer = answered));
      await jest.advanceTimersByTimeAsync(999);
      expect(answer).toBeUndefined();
      await jest.advanceTimersByTimeAsync(1);
      expect(answer).toBe(false);
    });

    it('answers from a ping where no heartbeat watches the database, and false without asking while not serving', async () => {
      await expect(connectedTo(async () => [{ '1': 1 }]).answers()).resolves.toBe(true);
      const query = jest.fn(async () => [{ '1': 1 }]);
      const notReady = Object.assign(connectedTo(query), { ready: false });
      await expect(notReady.answers()).resolves.toBe(false);
      expect(query).not.toHaveBeenCalled();
      await expect(connectedTo(async () => Promise.reject(new Error('SQLITE_IOERR'))).answers()).resolves.toBe(false);
    });
  });
});
