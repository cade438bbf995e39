import type { DataSource } from 'typeorm';
import { newPet } from '../../../../test/support/create-transaction-contract';
import { writePostgresCreates } from './postgres-create-sql';

// Against a real server: test/postgres/postgres-create-sql.spec.ts. Here, what only a server that misbehaves shows.
describe(writePostgresCreates.name, () => {
  it('fails a batch whose insert answers fewer ids than it has pets, rather than give a pet another’s id', async () => {
    const answersOneId = { query: async () => [{ id: '1' }] } as unknown as DataSource;
    await expect(writePostgresCreates(answersOneId, [{ pet: newPet('Rex') }, { pet: newPet('Tom') }])).rejects.toThrow('an insert of 2 pets returned 1 ids');
  });
});
