import { chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadDatabaseConfig } from './app-config';
import { developmentKeyFile, developmentKeyNotice, keepDevelopmentKey } from './development-key';

const key = (fill: string) => `pk_dev_${fill.repeat(32).slice(0, 32)}`;

describe('the development key kept beside the data', () => {
  let dir: string;

  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'petstore-development-key-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is kept beside the SQLite file, in ./data for PostgreSQL, and nowhere for an in-memory database', () => {
    expect(developmentKeyFile(loadDatabaseConfig({}))).toBe('data/development-key');
    expect(developmentKeyFile(loadDatabaseConfig({ DATABASE_URL: `sqlite:${dir}/shop/pets.sqlite` }))).toBe(`${dir}/shop/development-key`);
    expect(developmentKeyFile(loadDatabaseConfig({ DATABASE_URL: 'postgres://me@127.0.0.1:5432/test' }))).toBe('data/development-key');
    expect(developmentKeyFile(loadDatabaseConfig({ DATABASE_URL: 'sqlite::memory:' }))).toBeUndefined();
  });

  it('is written once, readable by its owner only, and the same at every later start', () => {
    const file = join(dir, 'data', 'development-key');

    expect(keepDevelopmentKey(file, key('a'))).toEqual({ key: key('a'), file });
    expect(keepDevelopmentKey(file, key('b'))).toEqual({ key: key('a'), file });
    expect(readFileSync(file, 'utf8')).toBe(`${key('a')}\n`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(dir, 'data'))).toEqual(['development-key']);
  });

  it('is the first comer’s for instances starting together', () => {
    const file = join(dir, 'development-key');
    const keys = ['a', 'b', 'c', 'd'].map((fill) => keepDevelopmentKey(file, key(fill)).key);

    expect(new Set(keys)).toEqual(new Set([key('a')]));
  });

  it('lasts one process where it cannot be kept, saying why', () => {
    const notAKey = join(dir, 'development-key');
    writeFileSync(notAKey, 'hello\n');
    expect(keepDevelopmentKey(notAKey, key('a'))).toEqual({ key: key('a'), problem: `${notAKey} does not hold a development key (delete it, and the next start writes one)` });

    const readOnly = join(dir, 'locked');
    writeFileSync(join(dir, 'placeholder'), '');
    chmodSync(dir, 0o500);
    try {
      // root writes anywhere: the refusal is then a file in the way of the folder.
      const blocked = process.getuid?.() === 0 ? join(dir, 'placeholder', 'development-key') : join(readOnly, 'development-key');
      expect(keepDevelopmentKey(blocked, key('a'))).toEqual({ key: key('a'), problem: expect.stringMatching(/^it could not be kept in .*development-key \((EACCES|EEXIST)\)$/) });
    } finally {
      chmodSync(dir, 0o700);
    }
    expect(keepDevelopmentKey(undefined, key('a'))).toEqual({ key: key('a') });
  });

  it('tells the person starting the service where the key is kept, or that it is not', () => {
    expect(developmentKeyNotice({ key: key('a'), file: 'data/development-key' })).toBe(
      `No API_KEYS configured: this process accepts the development key\n\n    ${key('a')}\n\n` +
        'Send it as "Authorization: Bearer <key>". It is kept in data/development-key, so the next start with this data accepts it too; ' +
        'delete that file for a new key. Set API_KEYS to choose your own keys.\n',
    );
    expect(developmentKeyNotice({ key: key('a'), problem: 'it could not be kept in x (EROFS)' })).toContain(
      'It lasts as long as this process: it could not be kept in x (EROFS). Set API_KEYS',
    );
  });
});
