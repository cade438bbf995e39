import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { DatabaseConfig } from './app-config';

const DEVELOPMENT_KEY = /^pk_dev_[A-Za-z0-9_-]{32}$/;
const FILE_NAME = 'development-key';

/** The key this process accepts, and where it is kept for the next start (or why it could not be). */
export interface KeptDevelopmentKey {
  key: string;
  file?: string;
  problem?: string;
}

/**
 * Where the development key of a database is kept: beside the SQLite file, so that the same data folder keeps the same
 * key across restarts (an exported PETSTORE_API_KEY and an open storefront tab keep working), and deleting the folder
 * starts afresh. PostgreSQL has no folder of ours: `./data`, the SQLite default's. An in-memory database keeps nothing.
 */
export function developmentKeyFile(database: DatabaseConfig): string | undefined {
  if (database.type === 'postgres') return join('data', FILE_NAME);
  if (database.path === ':memory:') return undefined;
  return join(dirname(database.path), FILE_NAME);
}

/**
 * The key kept in `file`, or `fresh` written there (owner-only) when there is none. Instances starting together agree:
 * the key is written whole to a file of this process's, then linked into place, which fails if another got there
 * first; that one's key is read. A key that cannot be kept is used for this process only, saying why.
 */
export function keepDevelopmentKey(file: string | undefined, fresh: string): KeptDevelopmentKey {
  if (!file) return { key: fresh };
  const own = `${file}.${process.pid}`;
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(own, `${fresh}\n`, { mode: 0o600 });
    linkSync(own, file);
    return { key: fresh, file };
  } catch (error) {
    // EEXIST from the link: another start kept its key first. From mkdir, a file is where the folder should be.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || !existsSync(file)) return { key: fresh, problem: `it could not be kept in ${file} (${describe(error)})` };
  } finally {
    removeQuietly(own);
  }
  try {
    const kept = readFileSync(file, 'utf8').trim();
    if (DEVELOPMENT_KEY.test(kept)) return { key: kept, file };
    return { key: fresh, problem: `${file} does not hold a development key (delete it, and the next start writes one)` };
  } catch (error) {
    return { key: fresh, problem: `${file} could not be read (${describe(error)})` };
  }
}

/** The file of this process's own, gone whatever happened: a failed removal changes nothing for the key. */
function removeQuietly(file: string): void {
  try {
    rmSync(file, { force: true });
  } catch {
    // Not there, or its folder is not one: nothing was left behind.
  }
}

const describe = (error: unknown): string => (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));

/** What a person starting the service reads on stderr: the key, and whether the next start keeps it. */
export function developmentKeyNotice({ key, file, problem }: KeptDevelopmentKey): string {
  const keeping = file
    ? `It is kept in ${file}, so the next start with this data accepts it too; delete that file for a new key.`
    : `It lasts as long as this process${problem ? `: ${problem}` : ''}.`;
  return (
    `No API_KEYS configured: this process accepts the development key\n\n    ${key}\n\n` +
    `Send it as "Authorization: Bearer <key>". ${keeping} Set API_KEYS to choose your own keys.\n`
  );
}
