import {
  ERROR_CODES,
  type ErrorCode,
  type FieldSpec,
  type FilterSpec,
  filterEntries,
  filterFieldOf,
  LIST_LIMIT,
  MAX_ID,
  type Pet,
  PET_FIELDS,
  type PetFilterName,
  sentFieldEntries,
} from '@petstore/contract';

// The oracle of the property tests: what pet-store-interface.md and behaviour.md say a request must get, written
// from those documents rather than from the service's code, so that the service and the oracle can disagree.

/** Bodies larger than this are refused with 413. */
export const BODY_LIMIT_BYTES = 16 * 1024;
/** JSON nested deeper than this is refused with 400. */
export const JSON_DEPTH_LIMIT = 32;

const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -INT64_MAX - 1n;

/** An error answer: the status follows from the code, and the message must contain every `mentions` entry. */
export interface Refusal {
  status: number;
  code: ErrorCode;
  mentions: string[];
}

export type Outcome<T> = { status: 200 | 201; value: T } | Refusal;

export const isRefusal = <T>(outcome: Outcome<T>): outcome is Refusal => 'code' in outcome;

const refuse = (code: ErrorCode, mentions: string[] = []): Refusal => ({ status: ERROR_CODES[code], code, mentions });

/** The query parameters a server reads from a URL's search part, in order, repeated ones included. */
export const queryParameters = (search: string): Array<[string, string]> => [...new URLSearchParams(search)];

// Names made only of unreserved characters decode the same way in every query parser, so the message must show them;
// names with escapes or `+` are refused all the same, but how they are spelled back is the parser's business.
const plainName = (name: string) => /^[A-Za-z0-9_.~-]{1,64}$/.test(name);

const unknownParameters = (parameters: Array<[string, string]>, known: readonly string[]) =>
  parameters.map(([name]) => name).filter((name) => !known.includes(name));

// ---------------------------------------------------------------------------------------------------------- createPet

/** A stored pet without its id: what a 201 must echo, with `status` defaulted. */
export type PetFields = Omit<Pet, 'id'>;

export interface CreatePetRequest {
  /** Absent when no Content-Type header is sent. */
  contentType?: string;
  body: string;
  /** The URL's search part, e.g. `?dryRun=1`, or ''. */
  search: string;
}

/** Media types are case-insensitive and may carry parameters; only `application/json` is a JSON body. */
export const isJsonMediaType = (contentType: string | undefined) =>
  contentType !== undefined && contentType.split(';')[0].trim().toLowerCase() === 'application/json';

/**
 * Text of `minLength` to `maxLength` code points with a non-whitespace character, stored and returned exactly as sent.
 * NUL and unpaired surrogates cannot be stored exactly in a PostgreSQL or SQLite text column, so "exactly as sent"
 * refuses them.
 */
function isText(value: unknown, minLength: number, maxLength: number): value is string {
  if (typeof value !== 'string') return false;
  const length = [...value].length;
  const storable = !value.includes('\u0000') && !/\p{Cs}/u.test(value);
  return length >= minLength && length <= maxLength && /\S/u.test(value) && storable;
}

/** A JSON integer JavaScript holds exactly, within the bounds, as the parsed number. */
const isWholeNumber = (value: unknown, min: number, max: number): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= min && value <= max;

/** RFC 3339's full-date: a day that exists, in years 0001 to 9999 (PostgreSQL has no year 0). */
function isFullDate(value: unknown): value is string {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value) || value.startsWith('0000')) return false;
  const parsed = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value;
}

/**
 * Whether the interface lets a field of this kind hold `value`: the model's own reading of each kind, so that the
 * contract's rules can be wrong and show it. Which fields a pet has, and of what kind, is the contract's list.
 */
export function fieldAccepts(spec: FieldSpec, value: unknown): boolean {
  switch (spec.kind) {
    case 'integer':
      return isWholeNumber(value, spec.min, spec.max);
    case 'text':
      return isText(value, spec.minLength, spec.maxLength);
    case 'choice':
      return spec.values.includes(value as string);
    case 'date':
      return isFullDate(value);
  }
}

/** Depth of the deepest array or object: `{}` is 1, `{"a":[]}` is 2. */
export function jsonDepth(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  return 1 + Math.max(0, ...Object.values(value).map(jsonDepth));
}

/** `__proto__` anywhere, or a `constructor` object carrying `prototype`: the shapes of prototype poisoning. */
export function hasPrototypeKeys(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  const own = (target: object, key: string) => Object.prototype.hasOwnProperty.call(target, key);
  const record = value as Record<string, unknown>;
  if (own(record, '__proto__')) return true;
  const ctor = own(record, 'constructor') ? record.constructor : undefined;
  if (ctor !== null && typeof ctor === 'object' && own(ctor, 'prototype')) return true;
  return Object.values(record).some(hasPrototypeKeys);
}

/** The message names every invalid field; an unknown field's name may be cut short, so its start must be there. */
function newPetProblems(body: unknown): string[] {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return ['JSON object'];
  const fields = body as Record<string, unknown>;
  const sent = sentFieldEntries(PET_FIELDS);
  const problems = Object.keys(fields)
    .filter((key) => !sent.some(([field]) => field === key))
    .map((key) => `"${key.slice(0, 32)}`);
  for (const [field, spec] of sent) {
    const leftOut = spec.optional && !(field in fields);
    if (!leftOut && !fieldAccepts(spec, fields[field])) problems.push(field);
  }
  return problems;
}

/** What POST /v1/pets must answer to an authenticated request. */
export function expectedCreatePet({ contentType, body, search }: CreatePetRequest): Outcome<PetFields> {
  if (!isJsonMediaType(contentType)) return refuse('unsupported_media_type');
  if (Buffer.byteLength(body) > BODY_LIMIT_BYTES) return refuse('payload_too_large');
  let parsed: unknown;
  try {
    // A UTF-8 byte order mark is not part of the JSON text (RFC 8259, section 8.1).
    parsed = JSON.parse(body.startsWith('\uFEFF') ? body.slice(1) : body);
  } catch {
    return refuse('malformed_json');
  }
  if (hasPrototypeKeys(parsed)) return refuse('validation_failed', ['__proto__']);
  if (jsonDepth(parsed) > JSON_DEPTH_LIMIT) return refuse('validation_failed', [`deeper than ${JSON_DEPTH_LIMIT}`]);
  const queryProblems = unknownParameters(queryParameters(search), []);
  const bodyProblems = newPetProblems(parsed);
  if (queryProblems.length > 0 || bodyProblems.length > 0) {
    // The query and the body are validated side by side; when both are wrong, either report is right.
    if (bodyProblems.length === 0) return refuse('validation_failed', queryProblems.filter(plainName));
    return refuse('validation_failed', queryProblems.length === 0 ? bodyProblems : []);
  }
  // The fields sent, and each left-out field's default.
  const sent = parsed as Record<string, unknown>;
  const echoed = sentFieldEntries(PET_FIELDS).flatMap(([field, spec]) => {
    const value = field in sent ? sent[field] : spec.kind === 'choice' ? spec.default : undefined;
    return value === undefined ? [] : [[field, value]];
  });
  return { status: 201, value: Object.fromEntries(echoed) as PetFields };
}

// ----------------------------------------------------------------------------------------------------------- listPets

/**
 * The id after which a cursor's page starts, or undefined for text the service did not make. Cursors are opaque to
 * clients; the model knows their format (base64url of `p1.<last id>`) only to tell generated junk from a real cursor.
 */
export function cursorPosition(cursor: string): number | undefined {
  if (!/^[A-Za-z0-9_-]{1,40}$/.test(cursor)) return undefined;
  const match = /^p1\.([1-9][0-9]{0,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  const id = match ? Number(match[1]) : Number.NaN;
  return Number.isSafeInteger(id) ? id : undefined;
}

/** The cursor of the page that starts after `lastId`, as the service writes it. */
export const cursorAfter = (lastId: number | string) => Buffer.from(`p1.${lastId}`, 'utf8').toString('base64url');

/** `limit` is a base-10 integer from 1 to 100; leading zeros do not change the number. */
export const isLimit = (text: string) =>
  /^[0-9]+$/.test(text) && Number(text) >= LIST_LIMIT.min && Number(text) <= LIST_LIMIT.max;

/**
 * listPets' `name`: one to 100 code points, not only whitespace, no control character (C0, DEL, C1), as a name a
 * person types is; the service could not find a lone surrogate in any stored name either.
 */
const isNameFilter = (text: string) =>
  /\S/u.test(text) && [...text].length <= 100 && !/\p{Cc}/u.test(text) && !/\p{Cs}/u.test(text);

/** A whole number in a query (`categoryId`): base-10 digits naming one from `min` to `max`. */
const isQueryWholeNumber = (text: string, min: number, max: number) => /^[0-9]+$/.test(text) && Number(text) >= min && Number(text) <= max;

/**
 * Whether a filter takes `text`: a `contains` filter as `name` does, an equality as its field holds a value (a whole
 * number written in base 10). Which filters there are, on which fields, is the contract's list.
 */
export function filterAccepts(spec: FilterSpec, text: string): boolean {
  if (spec.match === 'contains') return isNameFilter(text);
  const field = filterFieldOf(spec);
  return field.kind === 'integer' ? isQueryWholeNumber(text, field.min, field.max) : fieldAccepts(field, text);
}

/**
 * Names compared without case (docs/api.md, "Finding pets by name"): compatibility forms as their plain characters
 * (NFKC), then full case folding, which JavaScript has as upper-casing then lower-casing ("ß" → "SS" → "ss"), and one
 * sigma: Unicode's case folding maps the final sigma "ς" to "σ", which lower-casing does not.
 */
export const foldedName = (text: string) => text.normalize('NFKC').toUpperCase().toLowerCase().replace(/ς/g, 'σ');

export interface ListPage {
  limit: number;
  /** The filters as the request gave them, which the `next` link must carry unchanged. */
  filters: Partial<Record<PetFilterName, string>>;
  /** The pets of this page, in id order. */
  pets: Pet[];
  /** Whether more pets match after this page, i.e. whether a `next` link must be sent. */
  hasNext: boolean;
}

/** Whether `pet` passes the filters of a page: equal to the value, or, for `contains`, its name folded holding it. */
export function matchesFilters(pet: Pet, filters: ListPage['filters']): boolean {
  return filterEntries().every(([filter, spec]) => {
    const text = filters[filter];
    if (text === undefined) return true;
    const value = pet[spec.field];
    if (spec.match === 'contains') return foldedName(String(value)).includes(foldedName(text));
    return filterFieldOf(spec).kind === 'integer' ? value === Number(text) : value === text;
  });
}

/** listPets' parameters in the document's order. */
export const LIST_PARAMETERS = ['limit', ...filterEntries().map(([filter]) => filter), 'cursor'];

/** What GET /v1/pets{search} must answer when `stored` are the pets in the database, in id order. */
export function expectedListPets(search: string, stored: readonly Pet[]): Outcome<ListPage> {
  const parameters = queryParameters(search);
  const values = (name: string) => parameters.filter(([key]) => key === name).map(([, value]) => value);
  const [limits, cursors] = [values('limit'), values('cursor')];
  const problems = unknownParameters(parameters, LIST_PARAMETERS).filter(plainName);
  const wrong = (found: string[], accepts: (text: string) => boolean) => found.length > 1 || (found.length === 1 && !accepts(found[0]));
  const checks: Array<[string, boolean]> = [
    ['limit', wrong(limits, isLimit)],
    ...filterEntries().map(([filter, spec]): [string, boolean] => [filter, wrong(values(filter), (text) => filterAccepts(spec, text))]),
    ['cursor', cursors.length > 1],
  ];
  for (const [name, isWrong] of checks) if (isWrong) problems.push(name);
  if (unknownParameters(parameters, LIST_PARAMETERS).length > 0 || checks.some(([, isWrong]) => isWrong)) return refuse('validation_failed', problems);
  // Checked apart from the others: a cursor that is text but not one of ours is noticed once the rest is valid. It is
  // a place in id order, whatever filters the page that made it had.
  const after = cursors.length === 0 ? 0 : cursorPosition(cursors[0]);
  if (after === undefined) return refuse('validation_failed', ['cursor']);
  const limit = limits.length === 0 ? LIST_LIMIT.default : Number(limits[0]);
  const filters: ListPage['filters'] = Object.fromEntries(filterEntries().flatMap(([filter]) => values(filter).map((value) => [filter, value])));
  const matching = stored.filter((pet) => pet.id > after && matchesFilters(pet, filters));
  return { status: 200, value: { limit, filters, pets: matching.slice(0, limit), hasNext: matching.length > limit } };
}

// ------------------------------------------------------------------------------------------------------------- getPet

export interface GetPetOutcome {
  outcome: Outcome<Pet>;
  /** Whether the request reaches getPet at all (and so must carry its deprecation headers). */
  routed: boolean;
}

/** What GET /v1/pets/{segment} must answer; `segment` is the path segment as sent, percent-encoding included. */
export function expectedGetPet(segment: string, stored: ReadonlyMap<number, Pet>): GetPetOutcome {
  let petId: string;
  try {
    petId = decodeURIComponent(segment);
  } catch {
    // Not a path this service can read: no operation is chosen for it.
    return { outcome: refuse('bad_request'), routed: false };
  }
  const integer = /^-?[0-9]+$/.test(petId) ? BigInt(petId) : undefined;
  if (integer === undefined || integer > INT64_MAX || integer < INT64_MIN) {
    return { outcome: refuse('validation_failed', ['petId']), routed: true };
  }
  const pet = integer >= 1n && integer <= BigInt(MAX_ID) ? stored.get(Number(integer)) : undefined;
  return { outcome: pet ? { status: 200, value: pet } : refuse('not_found'), routed: true };
}

// ----------------------------------------------------------------------------------------------------- authentication

/**
 * Whether `Authorization: <value>` authenticates with `key`: the scheme word `Bearer` in any case, one or more spaces,
 * then exactly the key. fetch() strips leading and trailing whitespace from header values before sending them.
 */
export function isAcceptedAuthorization(value: string | undefined, key: string): boolean {
  if (value === undefined) return false;
  const match = /^bearer +(.*)$/is.exec(value.replace(/^[\t ]+|[\t ]+$/g, ''));
  return match?.[1] === key;
}
