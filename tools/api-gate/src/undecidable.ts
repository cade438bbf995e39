/**
 * What stops the gate from comparing at all though the documents are valid OpenAPI (a `$ref` to another file): it
 * refuses, naming what, as it refuses a change it cannot weigh (exit 1), rather than report that it could not compare.
 */
export class Undecidable extends Error {
  override readonly name = 'Undecidable';
}
