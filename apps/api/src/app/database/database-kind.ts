/**
 * The databases the service runs on, by name: what per-database values are keyed by. Each dialect's `kind` is one of
 * them, and dialects.ts checks at compile time that the dialects cover exactly these. Its own file, imported by both,
 * so that the migrations' per-database lines need nothing that imports the migrations back.
 */
export type DatabaseKind = 'sqlite' | 'postgres';
