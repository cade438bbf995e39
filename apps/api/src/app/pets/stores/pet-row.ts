import { type Pet, type PetStatus, PET_STATUSES } from '@petstore/contract';
import { toSafeInteger } from '../../database/safe-integer';
import type { PetToCreate } from '../pet.store';

/** How one field of the contract's Pet is kept in `pets` and served. */
type PetColumn<F extends keyof Pet> = Optionality<F> & {
  column: string;
  /** Its type in PostgreSQL, whose batch insert passes each column as one array (`unnest($1::varchar[], …)`). */
  postgresType: 'bigint' | 'varchar';
  /** The field in a response: Fastify serialises pets by it; a test holds it to the OpenAPI document's Pet. */
  schema: { type: 'integer' | 'string'; enum?: readonly string[] };
  /** The selected value as the field; PostgreSQL gives 64-bit columns as strings. */
  read: (value: unknown) => Pet[F];
};

/** `optional: true` exactly where the contract's Pet makes the field optional (not required in a response). */
type Optionality<F extends keyof Pet> = undefined extends Pet[F] ? { optional: true } : { optional?: never };

/**
 * The one list of the Pet's fields, in the interface's order: every statement on `pets` (the stores', the webhook
 * outbox's), the response schema and toPet are built from it. A field of Pet missing here does not compile; what else
 * adding one touches is listed in docs/architecture.md ("Where to change what"). test/pet-columns.spec.ts holds the
 * table, every path that writes or reads a pet, and the served document to it, on each database.
 */
const PET_COLUMNS: { readonly [F in keyof Pet]-?: PetColumn<F> } = {
  id: { column: 'id', postgresType: 'bigint', schema: { type: 'integer' }, read: toSafeInteger },
  name: { column: 'name', postgresType: 'varchar', schema: { type: 'string' }, read: (value) => value as string },
  categoryId: { column: 'category_id', postgresType: 'bigint', schema: { type: 'integer' }, read: toSafeInteger },
  status: { column: 'status', postgresType: 'varchar', schema: { type: 'string', enum: PET_STATUSES }, optional: true, read: (value) => value as PetStatus },
};

type PetField = keyof Pet;
/** The fields a create writes; `id` is the database's to assign. */
type WrittenField = Exclude<PetField, 'id'>;

/** The Pet's fields in the interface's order. */
export const PET_FIELDS = Object.keys(PET_COLUMNS) as PetField[];
const WRITTEN_FIELDS = PET_FIELDS.filter((field): field is WrittenField => field !== 'id');
const READERS = PET_FIELDS.map((field) => PET_COLUMNS[field].read);

/** The columns of `pets`, in the order of PET_FIELDS: e.g. the values of SQLite's `json_array` of a row. */
export const PET_COLUMN_NAMES = PET_FIELDS.map((field) => PET_COLUMNS[field].column);

/** The columns a create writes, in the order of {@link petValues}. */
export const PET_INSERT_COLUMNS = WRITTEN_FIELDS.map((field) => PET_COLUMNS[field].column);

/** Their PostgreSQL types, in the same order. */
export const PET_INSERT_POSTGRES_TYPES = WRITTEN_FIELDS.map((field) => PET_COLUMNS[field].postgresType);

/** A new pet's values for PET_INSERT_COLUMNS. */
export const petValues = (pet: PetToCreate): unknown[] => WRITTEN_FIELDS.map((field) => pet[field]);

/** The same, a column at a time over many pets: PostgreSQL's batch insert takes each column as an array. */
export const petColumnValues = (pets: PetToCreate[]): unknown[][] => WRITTEN_FIELDS.map((field) => pets.map((pet) => pet[field]));

/**
 * A select list of every column, each named as the contract names its field (`category_id AS "categoryId"`), for
 * {@link toPet}; qualified by `table` in a join.
 */
export const petSelectList = (table?: string): string =>
  PET_FIELDS.map((field) => `${table ? `${table}.` : ''}${PET_COLUMNS[field].column} AS "${field}"`).join(', ');

/** A row as selected with petSelectList. */
export type PetRow = Readonly<Record<PetField, unknown>>;

/** The one mapping from a selected row to the contract's Pet, fields in the interface's order. */
export const toPet = (row: PetRow): Pet => petFrom(row, PET_FIELDS);

/** The same from a row's values in the order of PET_COLUMN_NAMES (SQLite's `json_array`). */
export const valuesToPet = (values: readonly unknown[]): Pet => petFrom(values, POSITIONS);

const POSITIONS = PET_FIELDS.map((_, index) => index);

/** Whether each field, in the order of PET_FIELDS, may be left out of a Pet. */
const OPTIONAL = PET_FIELDS.map((field) => PET_COLUMNS[field].optional === true);

/**
 * Reads each field from `source[keys[i]]`; an optional field without a value (a NULL column, or none) is left out, as
 * the interface does: Fastify's serialiser would write a null string as "".
 */
function petFrom(source: PetRow | readonly unknown[], keys: ReadonlyArray<string | number>): Pet {
  const pet: Record<string, unknown> = {};
  for (let index = 0; index < PET_FIELDS.length; index += 1) {
    const selected = (source as Record<string | number, unknown>)[keys[index]];
    if (OPTIONAL[index] && (selected === null || selected === undefined)) continue;
    pet[PET_FIELDS[index]] = READERS[index](selected);
  }
  return pet as unknown as Pet;
}

/** A pet as a response carries it, for Fastify's compiled serialiser; nothing but these fields ever leaves. */
export const PET_JSON_SCHEMA = {
  type: 'object',
  properties: Object.fromEntries(PET_FIELDS.map((field) => [field, PET_COLUMNS[field].schema])),
  required: PET_FIELDS.filter((field) => !PET_COLUMNS[field].optional),
} as const;
