import { nameSearchKey } from '@petstore/contract';
import { Metrics } from '../../src/app/metrics/metrics';
import { PetStore } from '../../src/app/pets/pet.store';
import { postgresPetSql } from '../../src/app/pets/sql/postgres-pet-sql';
import { alwaysServing, itServesPetsAsTheModel } from '../support/pet-store-contract';
import { connectPostgres } from '../support/postgres-connection';
import { createTestDatabase } from '../support/test-database';

// PostgreSQL's statements of the pets store against a real server: pg_trgm for three characters or more, the short
// pieces' index after a walk of 5,000 pets, LIKE's own characters taken literally. What HTTP adds is test/list-pets*.spec.ts's.
describe(`${PetStore.name} on PostgreSQL`, () => {
  itServesPetsAsTheModel(async (pets) => {
    const database = await createTestDatabase();
    const { dataSource, dialect } = await connectPostgres(database);
    await dataSource.query(
      'INSERT INTO pets (id, name, category_id, status, name_key) SELECT * FROM unnest($1::bigint[], $2::varchar[], $3::bigint[], $4::varchar[], $5::varchar[])',
      [pets.map(({ id }) => id), pets.map(({ name }) => name), pets.map(({ categoryId }) => categoryId), pets.map(({ status }) => status), pets.map(({ name }) => nameSearchKey(name))],
    );
    await dataSource.query(`SELECT setval(pg_get_serial_sequence('pets', 'id'), $1)`, [pets.length]);
    return {
      store: new PetStore(alwaysServing(), new Metrics(), postgresPetSql(dataSource, dialect)),
      query: (sql) => dataSource.query(sql),
      close: async () => {
        await dataSource.destroy();
        await database.drop();
      },
    };
  });
});
