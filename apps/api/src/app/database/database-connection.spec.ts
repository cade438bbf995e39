import type { DataSource } from 'typeorm';
import { ApiException } from '../errors/api-exception';
import { DatabaseConnection } from './database-connection';
import type { DatabaseDialect } from './database-dialect';
import type { Heartbeat } from './database-watch';

/** A dialect with no watch and no deadline (as SQLite's), with `overrides` on top. */
const dialectWith = (overrides: Partial<Record<keyof DatabaseDialect, unknown>> = {}) =>
  ({ heartbeat: () => undefined, evictConnections: jest.fn(), operationDeadlineMs: () => undefined, ...overrides }) as unknown as DatabaseDialect;

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
});
