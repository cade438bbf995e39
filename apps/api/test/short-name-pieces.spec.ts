import fc from 'fast-check';
import { nameSearchKey } from '@petstore/contract';
import { DataSource } from 'typeorm';
import { shortPieceToken, sqliteShortPiecesOf } from '../src/app/database/migrations/short-name-index';
import { startApp, type TestApp } from './support/test-app';
import { TEST_DATABASE } from './support/test-database';

/** The model: each character of the key, and each pair of neighbours, as JavaScript counts characters (code points). */
const piecesOf = (key: string) => {
  const characters = [...key];
  return new Set([...characters, ...characters.slice(1).map((character, i) => characters[i] + character)]);
};

// The short-name index is written by the database (SQLite's triggers, PostgreSQL's pet_name_pieces) and looked up with
// pieces cut by the service: the two must cut every key alike, or a search misses the pets it should find.
describe(`the pieces of a key the short-name index holds (${TEST_DATABASE})`, () => {
  let sut: TestApp;
  beforeAll(async () => (sut = await startApp()));
  afterAll(() => sut.close());

  /** The database's pieces of `key`, as the tokens the service looks up (SQLite) or as the pieces themselves. */
  async function databasePieces(key: string): Promise<Set<string>> {
    const dataSource = sut.app.get(DataSource);
    if (TEST_DATABASE === 'sqlite') {
      const [{ document }] = (await dataSource.query(`WITH k (key) AS (SELECT ?) SELECT ${sqliteShortPiecesOf('k.key')} AS document FROM k`, [key])) as Array<{ document: string | null }>;
      return new Set(document ? document.split(' ') : []);
    }
    const [{ pieces }] = (await dataSource.query('SELECT pet_name_pieces($1) AS pieces', [key])) as Array<{ pieces: string[] }>;
    return new Set(pieces);
  }

  const expected = (key: string) => (TEST_DATABASE === 'sqlite' ? new Set([...piecesOf(key)].map(shortPieceToken)) : piecesOf(key));

  it.each(['a', 'rex', 'élo ïse', '🐈 tom', 'ｒｅｘ', 'straße', 'x"y\'z', '%_\\', 'a\u0301'])('cuts %j as the service does', async (name) => {
    const key = nameSearchKey(name);
    expect(await databasePieces(key)).toEqual(expected(key));
  });

  it('cuts any key as the service does', async () => {
    await fc.assert(
      // Any code point a name may hold: every one but NUL, which a name may not (new-pet-rules.ts).
      fc.asyncProperty(fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }).filter((name) => !name.includes('\u0000')), async (name) => {
        const key = nameSearchKey(name);
        expect(await databasePieces(key)).toEqual(expected(key));
      }),
      { seed: 5603, numRuns: 300 },
    );
  });
});
