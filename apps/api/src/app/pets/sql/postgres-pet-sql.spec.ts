import type { DataSource } from 'typeorm';
import { newPet } from '../../../../test/support/create-transaction-contract';
import type { PostgresDialect } from '../../database/postgres/postgres.dialect';
import { postgresPetSql } from './postgres-pet-sql';

// Against a real server: test/postgres/postgres-create-sql.spec.ts. Here, what only a server that misbehaves shows.
describe(postgresPetSql.name, () => {
  it('fails an insert that answers fewer ids than it has pets, rather than give a pet another’s id', async () => {
    const answersOneId = { query: async () => [{ id: '1' }] } as unknown as DataSource;
    const sql = postgresPetSql(answersOneId, { config: { poolSize: 1 } } as PostgresDialect);
    const { statement } = await sql.beginWrite(false);
    await expect(sql.insertPets(statement, [newPet('Rex'), newPet('Tom')])).rejects.toThrow('an insert of 2 pets returned 1 ids');
  });

  /** A pool whose query runner logs its steps, failing those named in `failing`. */
  function scripted(failing: string[]) {
    const log: string[] = [];
    const step = (name: string) => async () => {
      log.push(name);
      if (failing.includes(name)) throw new Error(`${name} failed`);
    };
    const runner = { startTransaction: step('begin'), commitTransaction: step('commit'), rollbackTransaction: step('rollback'), release: step('release') };
    const dataSource = { createQueryRunner: () => runner } as unknown as DataSource;
    return { log, sql: postgresPetSql(dataSource, { config: { poolSize: 1 } } as PostgresDialect) };
  }

  it('rolls back a write whose commit fails and gives its connection back, and one that fails to begin', async () => {
    const failedCommit = scripted(['commit']);
    await expect((await failedCommit.sql.beginWrite(true)).commit()).rejects.toThrow('commit failed');
    expect(failedCommit.log).toEqual(['begin', 'commit', 'rollback', 'release']);
    const failedBegin = scripted(['begin']);
    await expect(failedBegin.sql.beginWrite(true)).rejects.toThrow('begin failed');
    expect(failedBegin.log).toEqual(['begin', 'release']);
  });

  it('gives the connection back after a rollback, even one that fails, and after a commit', async () => {
    const failedRollback = scripted(['rollback']);
    await (await failedRollback.sql.beginWrite(true)).rollback();
    expect(failedRollback.log).toEqual(['begin', 'rollback', 'release']);
    const committed = scripted([]);
    await (await committed.sql.beginWrite(true)).commit();
    expect(committed.log).toEqual(['begin', 'commit', 'release']);
  });
});
