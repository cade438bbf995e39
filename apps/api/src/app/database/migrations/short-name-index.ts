import type { DataSource, QueryRunner } from 'typeorm';
import { inImmediateTransaction } from '../immediate-transaction';
import { progressOf } from './migration-progress';
import { inTurn } from './write-lock-pause';

// The index of names' one- and two-character pieces, for searches shorter than a trigram
// (IndexShortNames1796000000003). Its form is fixed once released: every stored pet was indexed by it.

/**
 * A search-key piece's token: the hex of its UTF-8 bytes, as SQLite's `hex()` writes it, so that any character (a
 * space, a quote, a letter the tokenizer would fold or split on) is one ASCII word.
 */
export const shortPieceToken = (piece: string): string => Buffer.from(piece, 'utf8').toString('hex').toUpperCase();

/**
 * SQLite: the document of `key`'s pieces, each character and each pair of neighbours as its token (a key's last
 * character comes twice, harmlessly). A trigger may hold neither a CTE nor a loop: json_each of an array of
 * length(key) zeros counts the positions instead.
 */
export const sqliteShortPiecesOf = (key: string) => `(SELECT group_concat(hex(substr(${key}, j.key + 1, 1)) || ' ' || hex(substr(${key}, j.key + 1, 2)), ' ')
  FROM json_each('[' || substr(replace(hex(zeroblob(length(${key}))), '00', ',0'), 2) || ']') AS j)`;

/**
 * PostgreSQL: `pet_name_pieces(key)`, each character and each pair of neighbours; IMMUTABLE, as an index on it requires.
 * PL/pgSQL, whose loop is cheaper than the same in SQL (docs/performance.md, "Searches shorter than a trigram").
 */
export const POSTGRES_PIECES_FUNCTION = `CREATE OR REPLACE FUNCTION pet_name_pieces(key text) RETURNS text[]
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
  DECLARE pieces text[] := string_to_array(key, NULL);
  BEGIN
    FOR i IN 1 .. char_length(key) - 1 LOOP
      pieces := pieces || substr(key, i, 2);
    END LOOP;
    RETURN pieces;
  END $$`;

/** Pets indexed per statement: a short write transaction each, so that other processes on the file hardly wait. */
const BATCH = 2_000;

const FILL_SQL = {
  // The migration's bookmark: `until` is the highest id when the triggers began, `through` how far the fill is.
  bookmark: 'SELECT through, until FROM pets_name_short_fill',
  // REPLACE: a pet a trigger already indexed (its key written or refolded meanwhile) comes out the same.
  fill: `INSERT OR REPLACE INTO pets_name_short (rowid, pieces)
    SELECT id, ${sqliteShortPiecesOf('name_key')} FROM pets WHERE id > ? AND id <= ? AND name_key IS NOT NULL`,
  advance: 'UPDATE pets_name_short_fill SET through = max(through, ?)',
  finish: 'DELETE FROM pets_name_short_fill WHERE through >= until',
};

/**
 * SQLite: indexes the pets stored before the index's triggers, a batch of ids per transaction, after the migration's
 * lock is let go. The bookmark in the database (pets_name_short_fill) lets a stopped fill resume and processes starting
 * together share the work; a process is ready only once it saw the bookmark go, so no search reads a half-filled index.
 */
export async function fillShortNameIndex(on: DataSource | QueryRunner): Promise<void> {
  const [start] = (await on.query(FILL_SQL.bookmark)) as Bookmark[];
  if (!start) return;
  const progress = progressOf(on);
  progress.begin('Short-name index of the pets stored before it', start.until - start.through);
  for (;;) {
    const through = await inTurn(on, () => fillBatch(on));
    if (through === undefined) break;
    progress.advance(through - start.through, start.until - start.through);
  }
  progress.end();
}

interface Bookmark {
  through: number;
  until: number;
}

/**
 * One batch in one write transaction, the bookmark read under its lock so that another process's progress is seen.
 * Returns how far the fill is, or nothing once it is done.
 */
function fillBatch(on: DataSource | QueryRunner): Promise<number | undefined> {
  return inImmediateTransaction(
    (sql) => on.query(sql),
    async () => {
      const [bookmark] = (await on.query(FILL_SQL.bookmark)) as Bookmark[];
      const next = bookmark && Math.min(bookmark.through + BATCH, bookmark.until);
      if (bookmark) {
        await on.query(FILL_SQL.fill, [bookmark.through, next]);
        await on.query(FILL_SQL.advance, [next]);
        await on.query(FILL_SQL.finish);
      }
      return next;
    },
  );
}
