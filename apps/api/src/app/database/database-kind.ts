import type { DataSourceOptions } from 'typeorm';

/**
 * The databases the service runs on, by TypeORM's names for them (`options.type`): what perDatabase values are keyed
 * by. Each dialect's `kind` is one of them and its options carry it as their `type` (OptionsOf), so that the kind read
 * back from a DataSource is its dialect's; chosen-dialect.ts checks at compile time that the dialects cover exactly
 * these. Its own file, imported by both, so that the migrations' per-database lines need nothing that imports the
 * migrations back.
 */
const DATABASE_KINDS = ['sqlite', 'postgres'] as const;
export type DatabaseKind = (typeof DATABASE_KINDS)[number];

/** TypeORM's options for a database of this kind: what a dialect of that kind connects with. */
export type OptionsOf<K extends DatabaseKind> = Extract<DataSourceOptions, { type: K }>;

/** Whether TypeORM's `options.type` names a database the service runs on. */
export const isDatabaseKind = (type: string): type is DatabaseKind => (DATABASE_KINDS as readonly string[]).includes(type);
