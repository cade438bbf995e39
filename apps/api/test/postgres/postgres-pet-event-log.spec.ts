import type { DataSource } from 'typeorm';
import { PostgresPetEventLog } from '../../src/app/events/log/postgres-pet-event-log';
import { connectPostgres } from '../support/postgres-connection';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

// What only PostgreSQL's log does: its sequencer. What both databases' logs do is test/pet-event-log.spec.ts's.
describe(PostgresPetEventLog.name, () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase();
    ({ dataSource } = await connectPostgres(database));
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  beforeEach(async () => {
    await dataSource.query('TRUNCATE pets, pet_events RESTART IDENTITY');
    await dataSource.query('UPDATE pet_event_sequence SET last = 0');
  });

  const addPets = (count: number) =>
    dataSource.query(`INSERT INTO pets (name, category_id, status, name_key) SELECT 'Pet ' || n, 1, 'available', 'pet ' || n FROM generate_series(1, $1) AS n`, [count]);

  it('gives a backlog larger than one statement takes its positions in several, within one read', async () => {
    await addPets(7);
    const sut = new PostgresPetEventLog(dataSource, 3);
    expect((await sut.readAfter(0, 10)).map(({ position, pet }) => [position, pet.id])).toEqual([1, 2, 3, 4, 5, 6, 7].map((n) => [n, n]));
    expect(await dataSource.query('SELECT last FROM pet_event_sequence')).toEqual([{ last: '7' }]);
    await addPets(3);
    expect((await sut.readAfter(7, 10)).map(({ position }) => position)).toEqual([8, 9, 10]);
  });

  it('opens no transaction when every event has its position, as most reads find', async () => {
    const sut = new PostgresPetEventLog(dataSource);
    await addPets(2);
    await sut.readAfter(0, 10);
    const transaction = jest.spyOn(dataSource, 'transaction');
    try {
      expect(await sut.readAfter(0, 10)).toHaveLength(2);
      expect(transaction).not.toHaveBeenCalled();
    } finally {
      transaction.mockRestore();
    }
  });
});
