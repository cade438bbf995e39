import type { DataSource } from 'typeorm';
import { ApiException } from '../errors/api.exception';
import { DatabaseConnection } from './database-connection';
import type { DatabaseDialect } from './database-dialect';

describe(DatabaseConnection.name, () => {
  describe('close', () => {
    it('lets the operations under way finish before it closes the database, and refuses later ones', async () => {
      const destroy = jest.fn(async () => undefined);
      const sut = new DatabaseConnection({ isInitialized: true, destroy } as unknown as DataSource, {} as DatabaseDialect);
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
      const dialect = {
        adaptTo: jest.fn((_: DataSource, failure: unknown) => (failure === refused ? 'connecting without the session settings' : undefined)),
        ensureDurability: jest.fn(async () => 'durable'),
        migrate: jest.fn(async () => []),
      } as unknown as DatabaseDialect;
      const sut = new DatabaseConnection(dataSource, dialect);
      await sut.onModuleInit();
      expect(initialize).toHaveBeenCalledTimes(2);
      expect(dialect.adaptTo).toHaveBeenCalledWith(dataSource, refused);
      expect(sut.ready).toBe(true);
    });
  });
});
