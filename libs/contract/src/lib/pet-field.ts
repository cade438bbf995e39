// How a field of the contract is described: by its kind, from which every consumer derives what it needs. A consumer
// handles each kind once (a `switch` the compiler holds to every kind), so a new field of a known kind needs nothing
// but its entry in the list.

/** What a field holds. */
export type FieldKind =
  /** A whole number JavaScript holds exactly, from `min` to `max`: int64 in the document and the databases. */
  | { readonly kind: 'integer'; readonly min: number; readonly max: number }
  /** Text of `minLength` to `maxLength` Unicode code points, not only whitespace, stored exactly as sent. */
  | { readonly kind: 'text'; readonly minLength: number; readonly maxLength: number }
  /** One of a closed set of strings, published as the enum `enumName`; `default` when left out. */
  | { readonly kind: 'choice'; readonly values: readonly string[]; readonly enumName: string; readonly default?: string }
  /** A calendar day written `YYYY-MM-DD` (RFC 3339 full-date), years 0001 to 9999. */
  | { readonly kind: 'date' };

/** One field: its kind and what people and the document call it. */
export type FieldSpec = FieldKind & {
  /** How people see it: the storefront's label and column, the CLI's column and its option (`Birth date` → `--birth-date`). */
  readonly label: string;
  /** The OpenAPI document's description. */
  readonly description: string;
  readonly example?: string | number;
  /** The service assigns it: never sent, always returned. */
  readonly assigned?: true;
  /** May be left out when sent, and is then absent from the stored record too unless the kind has a `default`. */
  readonly optional?: true;
};

/** A number is an integer; a string is text, a date or a choice. */
export type FieldKindOf<T> = NonNullable<T> extends number ? { readonly kind: 'integer' } : { readonly kind: 'text' | 'date' | 'choice' };

/** `optional: true` exactly where the interface makes the field optional. */
export type FieldOptionality<T> = undefined extends T ? { readonly optional: true } : { readonly optional?: never };

/** A field list for the interface `T`: every field, of a kind its type allows, optional where `T` says. */
export type FieldList<T> = { readonly [F in keyof T]-?: FieldSpec & FieldKindOf<T[F]> & FieldOptionality<T[F]> };

/** A field list's entries in its order (the interface's). */
export const fieldEntries = <T>(fields: FieldList<T>): Array<[keyof T & string, FieldSpec]> =>
  Object.entries(fields) as Array<[keyof T & string, FieldSpec]>;

/** The entries a client sends: every field but those the service assigns. */
export const sentFieldEntries = <T>(fields: FieldList<T>): Array<[keyof T & string, FieldSpec]> =>
  fieldEntries(fields).filter(([, spec]) => !spec.assigned);

const defaultsOf = new WeakMap<object, Array<[string, string]>>();

/** `values` with the default of each field left out filled in, as the service stores them. */
export function withDefaults<T, V extends { readonly [F in keyof T]?: unknown }>(fields: FieldList<T>, values: V): V {
  // Found once per list: this runs on every create.
  let defaults = defaultsOf.get(fields);
  // Stryker disable next-line ConditionalExpression: a cache; without it each create finds the same defaults again.
  if (!defaults) {
    defaults = fieldEntries(fields).flatMap(([field, spec]) => (spec.kind === 'choice' && spec.default !== undefined ? [[field, spec.default] as [string, string]] : []));
    // Stryker disable next-line all: the cache's filling, as above.
    defaultsOf.set(fields, defaults);
  }
  const filled: Record<string, unknown> = { ...values };
  for (const [field, value] of defaults) if (filled[field] === undefined) filled[field] = value;
  return filled as V;
}
