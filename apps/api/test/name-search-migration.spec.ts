import type { Pet } from '@petstore/contract';
import { DataSource } from 'typeorm';
import { loadDatabaseConfig } from '../src/app/config/app-config';
import { dialectFor } from '../src/app/database/chosen-dialect';
import { migrations } from '../src/app/database/migrations';
import { AddNameSearch1796000000000 } from '../src/app/database/migrations/1796000000000-add-name-search';
import { IndexNameSearch1796000000001 } from '../src/app/database/migrations/1796000000001-index-name-search';
import { FoldFinalSigma1796000000002 } from '../src/app/database/migrations/1796000000002-fold-final-sigma';
import { IndexShortNames1796000000003 } from '../src/app/database/migrations/1796000000003-index-short-names';
import { nameSearchKey } from '@petstore/contract';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { LONG_STEP_ROWS } from '../src/app/database/migrations/migration-progress';
import { AUTH, startApp } from './support/test-app';
import { createTestDatabase, directUrl, TEST_DATABASE, type TestDatabase } from './support/test-database';
import { until } from './support/until';

// A database made by version 1.0, with pets in it: 1.1 migrates it on start (on PostgreSQL, its indexes built
// CONCURRENTLY outside a transaction), and every pet it held is found by name and by category.
describe('the name search migrations on a database made by 1.0', () => {
  const NAMES = ['Éloïse', 'Straße', 'Rex', 'T-Rex', 'Ｒｅｘ', '🐈 Tom'];
  let database: TestDatabase;

  /** A source on the test database that knows the migrations up to the one at `last` in `migrations`. */
  async function sourceThrough(last: number): Promise<DataSource> {
    const dialect = dialectFor(loadDatabaseConfig({ DATABASE_URL: database.url }));
    const source = new DataSource({ ...(await dialect.options()), migrations: migrations.slice(0, last + 1) });
    await dialect.connectOnce(source);
    return source;
  }

  /** A new test database with the schema as the migrations up to the one at `last` leave it, and what `store` writes. */
  async function databaseThrough(last: number, store: (on: DataSource) => Promise<unknown>): Promise<void> {
    database = await createTestDatabase();
    const before = await sourceThrough(last);
    await before.runMigrations({ transaction: 'each' });
    await store(before);
    await before.destroy();
  }

  /**
   * The schema as 1.0 left it, and its pets, inserted as 1.0 did: without a search key, which it did not know. With
   * `interrupted`, also the first of 1.1's two migrations, as an instance stopped between them leaves it.
   */
  const databaseOfVersion10 = (count: number, interrupted = false) =>
    databaseThrough(migrations.indexOf(AddNameSearch1796000000000) - (interrupted ? 0 : 1), (on) => storeAs('1.0', on, 0, count));

  /**
   * Pets `from` to `to` (exclusive), named after NAMES, in id order, 500 a statement, as a release inserts them: 1.0
   * without a search key, 1.1.2 with the key it computes (this version's too).
   */
  async function storeAs(release: '1.0' | '1.1.2', on: DataSource, from: number, to: number): Promise<void> {
    const pets = Array.from({ length: to - from }, (_, i) => {
      const name = `${NAMES[(from + i) % NAMES.length]} ${from + i}`;
      return [name, 1 + ((from + i) % 4), ...(release === '1.0' ? [] : [nameSearchKey(name)])];
    });
    const columns = release === '1.0' ? 'name, category_id' : 'name, category_id, name_key';
    const row = (i: number) =>
      `(${pets[0].map((_, column) => (TEST_DATABASE === 'postgres' ? `$${i * pets[0].length + column + 1}` : '?')).join(', ')}, 'available')`;
    for (let start = 0; start < pets.length; start += 500) {
      const batch = pets.slice(start, start + 500);
      await on.query(`INSERT INTO pets (${columns}, status) VALUES ${batch.map((_, i) => row(i)).join(', ')}`, batch.flat());
    }
  }
  afterEach(() => database?.drop());

  const found = async (origin: string, query: string) => {
    const response = await fetch(`${origin}/v1/pets?${query.includes('limit=') ? '' : 'limit=100&'}${query}`, { headers: AUTH });
    expect({ query, status: response.status }).toEqual({ query, status: 200 });
    return ((await response.json()) as Pet[]).map((pet) => pet.name);
  };

  it('finds every pet 1.0 stored, by name (indexed or scanned) and by category', async () => {
    // More than a batch of the key fill (2,000), so that it takes several.
    await databaseOfVersion10(4_500);
    const sut = await startApp({ database });
    try {
      const stored = Array.from({ length: 4_500 }, (_, n) => ({ n, name: `${NAMES[n % NAMES.length]} ${n}`, categoryId: 1 + (n % 4) }));
      const expected = (keep: (pet: (typeof stored)[number]) => boolean, limit = 100) => stored.filter(keep).slice(0, limit).map(({ name }) => name);
      expect(await found(sut.origin, 'name=REX%204496')).toEqual(['Rex 4496']);
      expect(await found(sut.origin, `name=${encodeURIComponent('ÉLOÏSE 42')}`)).toEqual(expected(({ n }) => n % 6 === 0 && String(n).startsWith('42')));
      expect(await found(sut.origin, 'name=%F0%9F%90%88&limit=3')).toEqual(['🐈 Tom 5', '🐈 Tom 11', '🐈 Tom 17']);
      expect(await found(sut.origin, 'name=strasse%204&categoryId=2&limit=3')).toEqual(
        expected(({ n, categoryId }) => n % 6 === 1 && categoryId === 2 && String(n).startsWith('4'), 3),
      );
      const [{ missing }] = (await sut.app.get(DataSource).query('SELECT count(*) AS missing FROM pets WHERE name_key IS NULL')) as Array<{ missing: number | string }>;
      expect(Number(missing)).toBe(0);
    } finally {
      await sut.close();
    }
  });

  it('keys the pets an instance of 1.0 stores beside it, without a restart, so that a name search finds them', async () => {
    await databaseOfVersion10(10);
    const sut = await startApp({ database });
    try {
      // A rolling upgrade: the 1.0 instances still insert, after this one migrated.
      await storeAs('1.0', sut.app.get(DataSource), 10, 16);
      // Nest's log lines of a second app in one Jest file reach the first one's sink (nestjs-pino's root logger is the
      // process's): the search is what is watched.
      await until(() => found(sut.origin, 'name=rex%2014'), (names) => names.length > 0, 'the pet 1.0 stored, found by name', 60_000);
      expect(await found(sut.origin, 'name=rex%2014')).toEqual(['Rex 14']);
      expect(await found(sut.origin, `name=${encodeURIComponent('ÉLOÏSE 12')}`)).toEqual(['Éloïse 12']);
    } finally {
      await sut.close();
    }
  });

  it('rewrites the keys 1.1.0 and 1.1.1 wrote with a final sigma: those stored before, and those an instance of 1.1.1 stores beside it', async () => {
    // The schema as 1.1.1 left it (both of 1.1's migrations), and Greek names keyed as it keyed them: lower-cased,
    // a word's last sigma written "ς".
    const asVersion111 = (on: DataSource, names: string[]) =>
      on.query(
        `INSERT INTO pets (name, category_id, status, name_key) VALUES ${names.map((_, i) => (TEST_DATABASE === 'postgres' ? `($${2 * i + 1}, 1, 'available', $${2 * i + 2})` : "(?, 1, 'available', ?)")).join(', ')}`,
        names.flatMap((name) => [name, name.normalize('NFKC').toUpperCase().toLowerCase()]),
      );
    await databaseThrough(migrations.indexOf(IndexNameSearch1796000000001), (on) => asVersion111(on, ['Ὀδυσσεύς', 'Rex', 'Ζευς και Ήρα']));
    const sut = await startApp({ database });
    try {
      expect(await found(sut.origin, `name=${encodeURIComponent('ὈΔΥΣ')}`)).toEqual(['Ὀδυσσεύς']);
      expect(await found(sut.origin, `name=${encodeURIComponent('ΖΕΥΣ')}`)).toEqual(['Ζευς και Ήρα']);
      expect(await found(sut.origin, `name=${encodeURIComponent('ς')}`)).toEqual(['Ὀδυσσεύς', 'Ζευς και Ήρα']);
      const keys = (await sut.app.get(DataSource).query('SELECT name_key AS key FROM pets ORDER BY id')) as Array<{ key: string }>;
      expect(keys.map(({ key }) => key)).toEqual(['ὀδυσσεύσ', 'rex', 'ζευσ και ήρα']);
      // A 1.1.1 instance, still serving during the rollout, stores another.
      await asVersion111(sut.app.get(DataSource), ['Ἀχιλλεύς']);
      await until(() => found(sut.origin, `name=${encodeURIComponent('ΛΕΎΣ')}`), (names) => names.length > 0, 'the pet 1.1.1 stored, found by a piece ending in sigma', 60_000);
      expect(await found(sut.origin, `name=${encodeURIComponent('ύς')}`)).toEqual(['Ὀδυσσεύς', 'Ἀχιλλεύς']);
      // SQLite's FTS5 table holds each pet's new key, and no old one: what its integrity check compares with `pets`.
      if (TEST_DATABASE === 'sqlite') await sut.app.get(DataSource).query(`INSERT INTO pets_name (pets_name) VALUES ('integrity-check')`);
    } finally {
      await sut.close();
    }
  });

  describe('the index of one- and two-character pieces (1.1.3)', () => {
    /** The schema as 1.1.2 left it, and pets stored by 1.1.2, with its keys. */
    const databaseOfVersion112 = (count: number) => databaseThrough(migrations.indexOf(FoldFinalSigma1796000000002), (on) => storeAs('1.1.2', on, 0, count));

    /** What a short search must answer: every stored name holding the piece, in id order, as a scan of the keys finds. */
    const holding = (count: number, piece: string, limit = 100) =>
      Array.from({ length: count }, (_, n) => `${NAMES[n % NAMES.length]} ${n}`)
        .filter((name) => nameSearchKey(name).includes(nameSearchKey(piece)))
        .slice(0, limit);

    it('indexes the pets stored before it, more than a batch of the fill, and finds them by one and two characters', async () => {
      await databaseOfVersion112(4_500);
      const sut = await startApp({ database });
      try {
        for (const piece of ['ß', 'ss', 'x ', '🐈', 'ｒ', '44', ' 4', 'é']) {
          expect(await found(sut.origin, `name=${encodeURIComponent(piece)}`)).toEqual(holding(4_500, piece));
        }
        if (TEST_DATABASE === 'sqlite') {
          const dataSource = sut.app.get(DataSource);
          expect(await dataSource.query('SELECT * FROM pets_name_short_fill')).toEqual([]);
          await dataSource.query(`INSERT INTO pets_name_short (pets_name_short) VALUES ('integrity-check')`);
        }
      } finally {
        await sut.close();
      }
    });

    (TEST_DATABASE === 'sqlite' ? it : it.skip)('resumes a fill stopped midway, from where it stopped', async () => {
      // What a process stopped during the fill leaves: the schema and the bookmark, part of the way. The pets before it
      // are not in the index here, which a real stop would have put there: what shows that the fill goes on from the
      // bookmark rather than from the start.
      await databaseOfVersion112(4_500);
      const stopped = await sourceThrough(migrations.indexOf(IndexShortNames1796000000003));
      await stopped.runMigrations({ transaction: 'none' });
      expect(await stopped.query('SELECT through, until FROM pets_name_short_fill')).toEqual([{ through: 0, until: 4_500 }]);
      await stopped.query('UPDATE pets_name_short_fill SET through = 2000');
      await stopped.destroy();
      const sut = await startApp({ database });
      try {
        // Pets 2,001 to 4,500 (ids), which no trigger saw: indexed by the fill, and only they.
        expect(await found(sut.origin, 'name=99')).toEqual(holding(4_500, '99').filter((name) => Number(name.split(' ').pop()) >= 2_000));
      } finally {
        await sut.close();
      }
    });

    it('finds by one and two characters the pets an instance of 1.1.2 stores beside it', async () => {
      await databaseOfVersion112(10);
      const sut = await startApp({ database });
      try {
        await storeAs('1.1.2', sut.app.get(DataSource), 10, 20);
        expect(await found(sut.origin, 'name=17')).toEqual(['🐈 Tom 17']);
        expect(await found(sut.origin, `name=${encodeURIComponent('🐈')}`)).toEqual(holding(20, '🐈'));
        // And one deleted (as an operator may) is gone from the index with it.
        await sut.app.get(DataSource).query(`DELETE FROM pets WHERE name = '🐈 Tom 17'`);
        expect(await found(sut.origin, 'name=17')).toEqual([]);
      } finally {
        await sut.close();
      }
    });
  });

  (TEST_DATABASE === 'postgres' ? it : it.skip)('answers its probes while a long migration waits, and finishes it beside a statement timeout far shorter', async () => {
    // More pets than a long step has (LONG_STEP_ROWS): this start listens before its migration ends.
    const count = LONG_STEP_ROWS + 500;
    await databaseOfVersion10(count, true);
    // A writer's open transaction: the first index build waits for it, as a build on a live table waits for writers.
    const writer = new Client({ connectionString: directUrl(database) });
    await writer.connect();
    await writer.query('BEGIN');
    await writer.query(`INSERT INTO pets (name, category_id, status) VALUES ('Writer', 1, 'sold')`);
    // Through PgBouncer, migrations go to the server itself, as docs/operations.md says.
    const direct: Record<string, string> = process.env.PETSTORE_TEST_VIA_PGBOUNCER === 'true' ? { DATABASE_MIGRATION_URL: directUrl(database) } : {};
    const sut = await startApp({ database, env: { DATABASE_STATEMENT_TIMEOUT_MS: '100', ...direct } });
    try {
      expect((await fetch(`${sut.origin}/health/live`)).status).toBe(200);
      const routable = await fetch(`${sut.origin}/health/routable`);
      expect({ status: routable.status, retryAfter: routable.headers.get('retry-after') }).toEqual({ status: 503, retryAfter: '5' });
      expect(((await routable.json()) as { message: string }).message).toMatch(
        /^The service is starting: migrating the database \(Index pets_name_key_missing, [0-9,]+ of [0-9,]+ rows \([0-9]+%\)\)\.$/,
      );
      expect((await fetch(`${sut.origin}/health/ready`)).status).toBe(503);
      expect((await fetch(`${sut.origin}/v1/pets`, { headers: AUTH })).status).toBe(503);
      // A second instance starting meanwhile waits for that build, and answers its probes too. The build is under way
      // once the server lists it: the first instance says its step just before it sends the statement.
      await until(
        () => writer.query(`SELECT count(*)::int AS building FROM pg_stat_progress_create_index WHERE relid = 'pets'::regclass`),
        ({ rows: [{ building }] }) => building > 0,
        'the first instance building its index',
      );
      const second = await startApp({ database, env: { DATABASE_STATEMENT_TIMEOUT_MS: '100', ...direct } });
      try {
        expect((await fetch(`${second.origin}/health/live`)).status).toBe(200);
        expect(((await (await fetch(`${second.origin}/health/routable`)).json()) as { message: string }).message).toMatch(
          /^The service is starting: migrating the database \(.*, waiting for another instance's index build on pets, 0 of [0-9,]+ rows \(0%\)\)\.$/,
        );
      } finally {
        await second.close();
      }
      // Ten times the statement timeout: a build bound by it would have been cancelled by now.
      await sleep(1_000);
      await writer.query('COMMIT');
      await until(() => fetch(`${sut.origin}/health/routable`).then(({ status }) => status), (status) => status === 200, 'ready', 120_000);
      const last = `${NAMES[(count - 1) % NAMES.length]} ${count - 1}`;
      expect(await found(sut.origin, `name=${encodeURIComponent(last)}`)).toEqual([last]);
      expect(await found(sut.origin, 'name=writer')).toEqual(['Writer']);
    } finally {
      await writer.end();
      await sut.close();
    }
  });

  (TEST_DATABASE === 'postgres' ? it : it.skip)('builds valid indexes with instances starting at once, builds one again after a build that failed, and drops a rebuild cut short', async () => {
    await databaseOfVersion10(50);
    const valid = (dataSource: DataSource) =>
      dataSource.query(`SELECT c.relname AS name, i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
                        WHERE c.relname IN ('pets_name_key_trgm', 'pets_name_key_missing', 'pets_category_id_id', 'pets_name_pieces') ORDER BY c.relname`);
    const expected = ['pets_category_id_id', 'pets_name_key_missing', 'pets_name_key_trgm', 'pets_name_pieces'].map((name) => ({ name, valid: true }));
    // Three instances migrate at once: the builds take turns, and each instance comes up.
    const [first, ...others] = await Promise.all([1, 2, 3].map(() => startApp({ database })));
    await Promise.all(others.map((other) => other.close()));
    try {
      const dataSource = first.app.get(DataSource);
      expect(await valid(dataSource)).toEqual(expected);
      // What a CREATE INDEX CONCURRENTLY that was cancelled or timed out leaves: an invalid index, and the migration
      // not recorded. The next start drops it and builds it again.
      await dataSource.query(`UPDATE pg_index SET indisvalid = false WHERE indexrelid = 'pets_name_key_trgm'::regclass`);
      // And what a REINDEX CONCURRENTLY cut short leaves: its new index, invalid, which writes would go on updating.
      await dataSource.query('CREATE INDEX pets_status_id_ccnew ON pets (status, id)');
      await dataSource.query(`UPDATE pg_index SET indisvalid = false WHERE indexrelid = 'pets_status_id_ccnew'::regclass`);
      await dataSource.query(`DELETE FROM migrations WHERE name = $1`, [new IndexNameSearch1796000000001().name]);
    } finally {
      await first.close();
    }
    const second = await startApp({ database });
    try {
      expect(await valid(second.app.get(DataSource))).toEqual(expected);
      expect(await second.app.get(DataSource).query(`SELECT to_regclass('pets_status_id_ccnew') AS left`)).toEqual([{ left: null }]);
      expect(await found(second.origin, 'name=rex%2044')).toEqual(['Rex 44']);
    } finally {
      await second.close();
    }
  });
});
