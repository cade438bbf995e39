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
});
