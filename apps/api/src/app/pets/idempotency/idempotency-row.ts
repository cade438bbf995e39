import { toSafeInteger } from '../../database/safe-integer';
import type { IdempotencyClaim } from './idempotency-key';

/** A row of `idempotency_keys`: a claim, and the pet its create made. */
export interface StoredClaim extends IdempotencyClaim {
  petId: number;
}

type ClaimField = keyof StoredClaim;

/** How one field of a StoredClaim is kept in `idempotency_keys`. */
interface ClaimColumn<F extends ClaimField> {
  column: string;
  /** Its type in PostgreSQL, whose batch upsert passes each column as one array (`unnest($1::varchar[], …)`). */
  postgresType: 'bigint' | 'varchar';
  /** The selected value as the field; PostgreSQL gives 64-bit columns as strings. */
  read: (value: unknown) => StoredClaim[F];
}

const text = (value: unknown) => value as string;

/**
 * The one list of the columns of `idempotency_keys`, in the migration's order: the batch writers' statements on the
 * table (select, upsert, purge) and the reading of a selected row are built from it. A field of StoredClaim missing
 * here does not compile; a column added here (and in a migration) is written and read on both databases.
 */
const CLAIM_COLUMNS: { readonly [F in ClaimField]-?: ClaimColumn<F> } = {
  holder: { column: 'holder', postgresType: 'varchar', read: text },
  key: { column: 'idempotency_key', postgresType: 'varchar', read: text },
  fingerprint: { column: 'fingerprint', postgresType: 'varchar', read: text },
  petId: { column: 'pet_id', postgresType: 'bigint', read: toSafeInteger },
  createdAt: { column: 'created_at', postgresType: 'bigint', read: toSafeInteger },
};

const CLAIM_FIELDS = Object.keys(CLAIM_COLUMNS) as ClaimField[];
/** The table's primary key: keys are scoped to their holder. */
const KEY_FIELDS: readonly ClaimField[] = ['holder', 'key'];

/** Each field's column, e.g. `CLAIM_COLUMN.createdAt` for the purge. */
export const CLAIM_COLUMN = Object.fromEntries(CLAIM_FIELDS.map((field) => [field, CLAIM_COLUMNS[field].column])) as Readonly<Record<ClaimField, string>>;

/** The columns of a stored claim, in the order of {@link claimValues}. */
export const CLAIM_COLUMN_NAMES = CLAIM_FIELDS.map((field) => CLAIM_COLUMNS[field].column);

/** Their PostgreSQL types, in the same order. */
export const CLAIM_POSTGRES_TYPES = CLAIM_FIELDS.map((field) => CLAIM_COLUMNS[field].postgresType);

/** The primary key's columns, `holder, idempotency_key`: what a lookup matches and an upsert conflicts on. */
export const CLAIM_KEY_COLUMNS = KEY_FIELDS.map((field) => CLAIM_COLUMNS[field].column).join(', ');

/** The columns an upsert replaces when a key's expired row is claimed again. */
export const CLAIM_REPLACED_COLUMNS = CLAIM_FIELDS.filter((field) => !KEY_FIELDS.includes(field)).map((field) => CLAIM_COLUMNS[field].column);

/** A select list of every column, each named as its field (`pet_id AS "petId"`), for {@link toStoredClaim}. */
export const CLAIM_SELECT_LIST = CLAIM_FIELDS.map((field) => `${CLAIM_COLUMNS[field].column} AS "${field}"`).join(', ');

/** The row a create with a key stores once its pet has an id. */
export const storedClaim = (claim: IdempotencyClaim, petId: number): StoredClaim => ({ ...claim, petId });

/** A stored claim's values for CLAIM_COLUMN_NAMES. */
export const claimValues = (row: StoredClaim): unknown[] => CLAIM_FIELDS.map((field) => row[field]);

/** The same, a column at a time over many rows: PostgreSQL's batch upsert takes each column as an array. */
export const claimColumnValues = (rows: StoredClaim[]): unknown[][] => CLAIM_FIELDS.map((field) => rows.map((row) => row[field]));

/** A row as selected with CLAIM_SELECT_LIST. */
export type ClaimRow = Readonly<Record<ClaimField, unknown>>;

/** The one mapping from a selected row to a StoredClaim. */
export const toStoredClaim = (row: ClaimRow): StoredClaim =>
  Object.fromEntries(CLAIM_FIELDS.map((field) => [field, CLAIM_COLUMNS[field].read(row[field])])) as unknown as StoredClaim;
