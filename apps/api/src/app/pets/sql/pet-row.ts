import { type FieldList, type FieldSpec, fieldEntries, nameSearchKey, type Pet, PET_FIELDS } from '@petstore/contract';
import { toSafeInteger } from '../../database/safe-integer';

/** How a field of each kind is kept in a table and served. */
interface ColumnOfKind {
  /** Its type in PostgreSQL, whose batch insert passes each column as one array (`unnest($1::varchar[], …)`). */
  postgresType: 'bigint' | 'varchar' | 'date';
  /** The field in a response, for Fastify's compiled serialiser. */
  schema: { type: 'integer' | 'string'; enum?: readonly string[] };
  /** The selected value as the field: PostgreSQL gives 64-bit columns as strings and node-pg a `date` as a Date. */
  read: (value: unknown) => unknown;
}

const asString = (value: unknown) => value as string;
const twoDigits = (value: number) => String(value).padStart(2, '0');

/** node-pg makes a `date` a Date at local midnight: its local day is the stored one. SQLite keeps the text. */
export const readDate = (value: unknown): string =>
  value instanceof Date
    ? `${String(value.getFullYear()).padStart(4, '0')}-${twoDigits(value.getMonth() + 1)}-${twoDigits(value.getDate())}`
    : (value as string);

function columnOf(spec: FieldSpec): ColumnOfKind {
  switch (spec.kind) {
    case 'integer':
      return { postgresType: 'bigint', schema: { type: 'integer' }, read: toSafeInteger };
    case 'text':
      return { postgresType: 'varchar', schema: { type: 'string' }, read: asString };
    case 'choice':
      return { postgresType: 'varchar', schema: { type: 'string', enum: spec.values }, read: asString };
    case 'date':
      return { postgresType: 'date', schema: { type: 'string' }, read: readDate };
  }
}

/** `categoryId` → `category_id`: the table's spelling of a field. */
export const columnName = (field: string): string => field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** A row as selected with `selectList`: the contract's field names, the database's values. */
export type SelectedRow<T> = Readonly<Partial<Record<keyof T & string, unknown>>>;

/** A column the store writes beside the fields, computed from the record, and never served (a search key). */
export interface DerivedColumn<Written> {
  column: string;
  postgresType: ColumnOfKind['postgresType'];
  valueOf: (record: Written) => unknown;
}

/**
 * A table's columns, statements' parts and row mapping, from a field list: every statement on `pets`, toPet and the
 * response schema are built from PET_FIELDS's, so that a field of a known kind needs only its entry and a migration.
 * `derived` columns are written after the fields' on every insert.
 */
export function rowMappingOf<T, Written extends Partial<T>>(fields: FieldList<T>, derived: ReadonlyArray<DerivedColumn<Written>> = []) {
  const entries = fieldEntries(fields);
  const names = entries.map(([field]) => field);
  const columns = entries.map(([field, spec]) => ({ field, column: columnName(field), optional: spec.optional === true, ...columnOf(spec) }));
  const valueOfField = (field: string) => (record: Written) => (record as Record<string, unknown>)[field] ?? null;
  const written = [
    ...columns.filter((_, index) => !entries[index][1].assigned).map(({ field, column, postgresType }) => ({ column, postgresType, valueOf: valueOfField(field) })),
    ...derived,
  ];

  /**
   * Reads each field from `source[keys[i]]`; an optional field without a value (a NULL column, or none) is left out,
   * as the interface does: Fastify's serialiser would write a null string as "".
   */
  const recordFrom = (source: object, keys: ReadonlyArray<string | number>): T => {
    const record: Record<string, unknown> = {};
    for (let index = 0; index < columns.length; index += 1) {
      const selected = (source as Record<string | number, unknown>)[keys[index]];
      const { field, optional, read } = columns[index];
      if (optional && (selected === null || selected === undefined)) continue;
      record[field] = read(selected);
    }
    return record as T;
  };
  const positions = names.map((_, index) => index);

  return {
    /** The columns, in the list's order: e.g. the values of SQLite's `json_array` of a row. */
    columnNames: columns.map(({ column }) => column),
    /** The columns a create writes, in the order of `insertValues`. */
    insertColumns: written.map(({ column }) => column),
    /** Their PostgreSQL types, in the same order. */
    insertPostgresTypes: written.map(({ postgresType }) => postgresType),
    /** A new record's values for `insertColumns`; an optional field left out is NULL. */
    insertValues: (record: Written): unknown[] => written.map(({ valueOf }) => valueOf(record)),
    /** The same, a column at a time over many records: PostgreSQL's batch insert takes each column as an array. */
    insertColumnValues: (records: Written[]): unknown[][] => written.map(({ valueOf }) => records.map(valueOf)),
    /** Every column, each named as the contract names its field (`category_id AS "categoryId"`); qualified by `table` in a join. */
    selectList: (table?: string): string => columns.map(({ field, column }) => `${table ? `${table}.` : ''}${column} AS "${field}"`).join(', '),
    /** The one mapping from a row selected with `selectList` to the contract's record, fields in the list's order. */
    toRecord: (row: SelectedRow<T>): T => recordFrom(row, names),
    /** The same from a row's values in the order of `columnNames` (SQLite's `json_array`). */
    valuesToRecord: (values: readonly unknown[]): T => recordFrom(values, positions),
    /** A record as a response carries it, for Fastify's compiled serialiser; nothing but these fields ever leaves. */
    jsonSchema: {
      type: 'object',
      properties: Object.fromEntries(columns.map(({ field, schema }) => [field, schema])),
      required: columns.filter(({ optional }) => !optional).map(({ field }) => field),
    },
  } as const;
}

/** The name's search key (nameSearchKey), which listPets' `name` filter looks up: docs/api.md, "Finding pets by name". */
export const NAME_KEY_COLUMN = 'name_key';

const PET_ROWS = rowMappingOf<Pet, Omit<Pet, 'id'>>(PET_FIELDS, [
  { column: NAME_KEY_COLUMN, postgresType: 'varchar', valueOf: (pet) => nameSearchKey(pet.name) },
]);

export type PetRow = SelectedRow<Pet>;
export const {
  columnNames: PET_COLUMN_NAMES,
  insertColumns: PET_INSERT_COLUMNS,
  insertPostgresTypes: PET_INSERT_POSTGRES_TYPES,
  insertValues: petValues,
  insertColumnValues: petColumnValues,
  selectList: petSelectList,
  toRecord: toPet,
  valuesToRecord: valuesToPet,
  jsonSchema: PET_JSON_SCHEMA,
} = PET_ROWS;
