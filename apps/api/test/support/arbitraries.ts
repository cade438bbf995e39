import fc from 'fast-check';
import { type FieldSpec, LIST_LIMIT, MAX_ID, PET_FIELDS, PET_STATUSES, type Pet, type PetFilterName, sentFieldEntries } from '@petstore/contract';
import { BODY_LIMIT_BYTES, JSON_DEPTH_LIMIT, LIST_PARAMETERS, cursorAfter } from './contract-model';

// Generators of requests, valid and invalid, drawn from the interface. Each value is a small description that
// fast-check prints and shrinks (a 16 KiB string is `{ repeat: 'é', times: 8190 }`), rendered to bytes at the edge.
// Which outcome a request must get is decided by contract-model.ts, never here.

const INT64_MAX = 2n ** 63n - 1n;

const oneOf = <T>(...choices: Array<[number, fc.Arbitrary<T>]>): fc.Arbitrary<T> =>
  fc.oneof(...choices.map(([weight, arbitrary]) => ({ weight, arbitrary })));

const json = (value: unknown) => JSON.stringify(value);

/** `arbitrary` present `present` times in `present + absent`, otherwise undefined. */
const sometimes = <T>(arbitrary: fc.Arbitrary<T>, present: number, absent: number) =>
  oneOf<T | undefined>([present, arbitrary], [absent, fc.constant(undefined)]);

// ------------------------------------------------------------------------------------------------------------ queries

/** One piece of a query string: a parameter (percent-encoded when rendered), a name without `=`, or raw text. */
export type QueryPart = [name: string, value: string] | { bare: string } | { raw: string };

// Characters a URL carries unchanged in its query, `%` included, so that raw text can hold broken escapes.
const rawQueryText = fc.string({ unit: fc.constantFrom(...'abzAZ019%+=&-._~!$()*,;:@/?'), minLength: 1, maxLength: 12 });

const junkText = oneOf<string>(
  [3, fc.string({ unit: 'grapheme', maxLength: 12 })],
  [1, fc.string({ unit: 'binary', maxLength: 12 })],
  [1, fc.constantFrom('__proto__', 'constructor', 'hasOwnProperty', 'toString', 'valueOf', 'null', 'undefined')],
);

const unknownParameterName = oneOf<string>(
  [3, fc.constantFrom('Limit', 'STATUS', 'staus', 'cursor ', 'page', 'offset', 'id', 'limit[]', 'status.0', '', 'Name', 'category', 'categoryid', 'q')],
  [2, junkText.filter((name) => !LIST_PARAMETERS.includes(name))],
);

export const limitValue = oneOf<string>(
  [12, fc.integer({ min: LIST_LIMIT.min, max: LIST_LIMIT.max }).map(String)],
  [1, fc.tuple(fc.integer({ min: 1, max: 24 }), fc.integer({ min: 0, max: 120 })).map(([zeros, n]) => '0'.repeat(zeros) + n)],
  [2, fc.constantFrom('0', '101', '-1', '2.5', 'abc', '', '1e1', '0x10', ' 5', '5 ', '+5', '1_0', '١', '１', '1.0', '9'.repeat(20))],
  [1, fc.integer().map(String)],
);

export const statusValue = oneOf<string>(
  [12, fc.constantFrom(...PET_STATUSES)],
  [1, fc.mixedCase(fc.constantFrom(...PET_STATUSES))],
  [1, fc.constantFrom('', ' sold', 'sold ', 'lost', 'available,sold', 'null', 'sold\u0000')],
);

/**
 * Names the listPets property test stores, chosen so that searches meet what makes folding matter: accents, a sharp s
 * against "SS", full-width letters, a ligature, final and medial sigma, and LIKE's and FTS5's own characters.
 */
export const SEARCHED_NAMES = ['Rex', 'rex junior', 'RÉX', 'Éloïse', 'eloise', 'Straße', 'STRASSE', 'Ｒｅｘ', 'ﬁfi', 'ΟΔΥΣΣΕΥΣ', 'ὀδυσσεύς', '100%_cat', 'a"b\\c', 'Mr Whiskers', '🐈 Tom'];

/** A name pet: one of SEARCHED_NAMES, sometimes with a number after it. */
export const searchedName = fc.tuple(fc.constantFrom(...SEARCHED_NAMES), fc.option(fc.integer({ min: 0, max: 99 }), { nil: undefined })).map(([name, n]) => (n === undefined ? name : `${name} ${n}`));

/** Pieces of the stored names in any case (one or two characters too, which no trigram serves), and text never stored or refused. */
export const nameValue = oneOf<string>(
  [10, fc.tuple(fc.constantFrom(...SEARCHED_NAMES), fc.nat(), fc.integer({ min: 1, max: 8 })).chain(([name, start, length]) => {
    const points = [...name];
    const from = start % points.length;
    return fc.mixedCase(fc.constant(points.slice(from, from + length).join('')));
  })],
  [2, fc.constantFrom('strasse', 'STRAẞE', 'ÉLO', 'odysseus', 'οδυσσευσ', 'ΣΣ', 'rex', 'fi', '%', '_', '\\', '"', 'x'.repeat(100), 'nobody')],
  [2, fc.constantFrom('', ' ', '  ', 'x'.repeat(101), 'a\tb', 'a\nb', '\u0000', 'a\u007f', 'a\u0085b', '\u00a0')],
  [1, junkText],
);

/** Categories of stored pets (1 to 7), one no pet has, and values the service refuses. */
export const categoryValue = oneOf<string>(
  [10, fc.integer({ min: 1, max: 8 }).map(String)],
  [1, fc.constantFrom('007', String(MAX_ID))],
  [2, fc.constantFrom('0', '-1', '2.5', 'abc', '', ' 1', '1e1', '0x10', String(MAX_ID + 1), '9'.repeat(20), '１')],
);

/** Cursors of real positions (mostly near the stored ids), of impossible ones, and text the service never made. */
export const cursorValue = oneOf<string>(
  [8, fc.integer({ min: 1, max: 400 }).map(cursorAfter)],
  [1, fc.constantFrom(1, MAX_ID - 1, MAX_ID).map(cursorAfter)],
  [1, fc.integer({ min: 1, max: MAX_ID }).map(cursorAfter)],
  [1, fc.constantFrom<number | string>(0, -5, MAX_ID + 1, '01', '1.5', 'x', '', ' 1', '1 ', '1e3').map(cursorAfter)],
  [1, fc.integer({ min: 1, max: 400 }).map((id) => `${cursorAfter(id)}=`)],
  [1, fc.string({ unit: fc.constantFrom(...'ABCcDEQMTdxyz0159_-'), maxLength: 44 })],
  [1, junkText],
);

/**
 * Values of each listPets filter, with how often a query has it (of 2, of 3): typed over PET_FILTERS, so that a filter
 * added does not compile here until it has values that meet the stored pets and values the service refuses.
 */
const FILTER_VALUES: { [F in PetFilterName]: { values: fc.Arbitrary<string>; present: number; absent: number } } = {
  status: { values: statusValue, present: 1, absent: 1 },
  name: { values: nameValue, present: 1, absent: 1 },
  categoryId: { values: categoryValue, present: 1, absent: 2 },
};
const filterValues = Object.entries(FILTER_VALUES);

const parameter = oneOf<QueryPart>(
  [4, fc.tuple(fc.constant('limit'), limitValue)],
  [3, fc.tuple(fc.constant('cursor'), cursorValue)],
  ...filterValues.map(([filter, { values }]): [number, fc.Arbitrary<QueryPart>] => [2, fc.tuple(fc.constant(filter), values)]),
  [1, fc.tuple(unknownParameterName, oneOf<string>([1, fc.constant('1')], [1, junkText]))],
  [1, fc.record({ bare: fc.constantFrom(...LIST_PARAMETERS, 'x') })],
  [1, fc.record({ raw: rawQueryText })],
);

/**
 * Query strings built from the listPets parameters: mostly each at most once, as a client writes them, and otherwise
 * anything, with repeats, unknown names, names without values, encoded junk and broken escapes.
 */
export const listQuery: fc.Arbitrary<QueryPart[]> = oneOf<QueryPart[]>(
  [
    6,
    fc
      .record({
        limit: sometimes(limitValue, 3, 2),
        ...Object.fromEntries(filterValues.map(([filter, { values, present, absent }]) => [filter, sometimes(values, present, absent)])),
        cursor: sometimes(cursorValue, 2, 3),
      })
      .map((values) => Object.entries(values).filter((entry): entry is [string, string] => entry[1] !== undefined)),
  ],
  [3, fc.array(parameter, { minLength: 1, maxLength: 4 })],
);

/** A query for an operation that takes none: usually none at all. */
export const strayQuery: fc.Arbitrary<QueryPart[]> = oneOf<QueryPart[]>([12, fc.constant([])], [1, listQuery]);

/** `?` and the parts joined with `&`, or '' for none. Names and values are percent-encoded, raw text is not. */
export function renderQuery(parts: readonly QueryPart[]): string {
  if (parts.length === 0) return '';
  const rendered = parts.map((part) => {
    if (Array.isArray(part)) return `${encodeURIComponent(part[0])}=${encodeURIComponent(part[1])}`;
    return 'bare' in part ? encodeURIComponent(part.bare) : part.raw;
  });
  return `?${rendered.join('&')}`;
}

// ---------------------------------------------------------------------------------------------------------- createPet

/** A member's value: JSON text as it is sent, one character repeated, or arrays/objects nested `depth` deep. */
export type MemberValue = string | { repeat: string; times: number } | { nest: '[' | '{'; depth: number };

export interface ObjectBody {
  members: Array<[name: string, value: MemberValue]>;
  /** Spaces after `{` so that the whole body is this many bytes (when it is shorter). */
  padToBytes?: number;
}

/** A body as generated: a JSON object described member by member, or any text. */
export type BodySpec = { object: ObjectBody } | { text: string };

export interface CreatePetCase {
  /** Absent: no Content-Type header at all. */
  contentType?: string;
  query: QueryPart[];
  body: BodySpec;
  /** Sent with `Transfer-Encoding: chunked` in this many pieces, cut at any byte; absent: with Content-Length. */
  chunks?: number;
}

const whitespace = fc.constantFrom(...' \t\n\r\u00a0\u1680\u2003\u2028\u202f\u3000\ufeff');
const anyCodePoint = fc.string({ unit: 'binary', minLength: 1, maxLength: 1 });

/** `length` code points, each `x`, each 🐈 (two UTF-16 units), or each any code point at all. */
const nameOfLength = (length: number) =>
  fc
    .constantFrom(fc.constant('x'), fc.constant('🐈'), anyCodePoint)
    .chain((unit) => fc.array(unit, { minLength: length, maxLength: length }))
    .map((chars) => chars.join(''));

const spaces = fc.string({ unit: whitespace, maxLength: 2 });
const padded = fc.tuple(spaces, fc.string({ minLength: 1, maxLength: 8 }), spaces).map((parts) => parts.join(''));

const withUnpairedSurrogate = fc
  .tuple(fc.string({ maxLength: 4 }), fc.integer({ min: 0xd800, max: 0xdfff }), fc.string({ maxLength: 4 }))
  .map(([before, unit, after]) => before + String.fromCharCode(unit) + after);

/** Text of every kind for a field of at most `maxLength`: ordinary, any code point, boundary lengths, whitespace, NUL, unpaired surrogates. */
const textOf = (maxLength: number) =>
  oneOf<string>(
    [6, fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: Math.min(24, maxLength) })],
    [4, fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 })],
    [3, fc.string({ unit: 'binary', minLength: 1, maxLength })],
    [2, fc.integer({ min: maxLength - 1, max: maxLength + 1 }).chain(nameOfLength)],
    [1, fc.string({ unit: whitespace, minLength: 1, maxLength: 4 })],
    [1, padded],
    [1, fc.constantFrom('', 'Re\u0000x', "Robert'); DROP TABLE pets;--", '<b>Rex</b>', '%s%n', '${name}', '\\', '"', 'e\u0301')],
    [1, fc.constantFrom('🐈‍⬛', '\uffff', '\u{10ffff}', '\u202eRex')],
    [1, withUnpairedSurrogate],
  );

const notText = fc.constantFrom('null', '42', '["Rex"]', '{"first":"Rex"}', 'false');

/** A whole number field as JSON text: its whole range and its edges, numbers spelled oddly, and wrong types. */
const wholeNumberText = (min: number, max: number) =>
  oneOf<string>(
    [8, fc.integer({ min, max: Math.min(max, min + 999) }).map(String)],
    [3, fc.integer({ min, max }).map(String)],
    [2, fc.constantFrom(min, min + 1, max - 1, max, max + 1, min - 1, 0, -1).map(String)],
    [1, fc.constantFrom('1.0', '1e3', '1E2', '10.00', '0.1e1', `${max}.0`)],
    [1, fc.constantFrom('-0', '2.5', '1e400', '9007199254740993', '18446744073709551616')],
    [1, fc.constantFrom('"5"', 'null', 'true', '[]', '{}', '[1]', '"1e3"')],
    [1, fc.double().map(json)],
    [1, fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String)],
  );

/** One of `values` as JSON text, or a near miss: another case, a space, another type. */
const choiceText = (values: readonly string[]) =>
  oneOf<string>(
    [10, fc.constantFrom(...values).map(json)],
    [1, fc.constantFrom(...values).chain((value) => fc.constantFrom(value.toUpperCase(), ` ${value}`, `${value[0].toUpperCase()}${value.slice(1)}`, '', 'lost')).map(json)],
    [1, fc.constantFrom('null', '1', `[${json(values[0])}]`, '{"value":"x"}', 'true')],
  );

const day = (date: Date) => date.toISOString().slice(0, 10);

/** A date as JSON text: any day from year 1 to 9999, leap days, and days that do not exist or are written otherwise. */
const dateText = oneOf<string>(
  [8, fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T00:00:00Z'), noInvalidDate: true }).map((date) => json(day(date)))],
  [1, fc.constantFrom('2024-02-29', '2000-02-29', '0001-01-01', '9999-12-31').map(json)],
  [1, fc.constantFrom('2023-02-29', '1900-02-29', '2024-04-31', '2024-13-01', '0000-01-01', '2024-1-1', '2024-01-01T00:00:00Z', '', ' 2024-01-01').map(json)],
  [1, fc.constantFrom('20240101', 'null', 'true', '["2024-01-01"]')],
);

/** A field's value as JSON text, valid or not, by the field's kind. */
export function fieldText(spec: FieldSpec): fc.Arbitrary<string> {
  switch (spec.kind) {
    case 'text':
      return oneOf<string>([30, textOf(spec.maxLength).map(json)], [1, notText]);
    case 'integer':
      return wholeNumberText(spec.min, spec.max);
    case 'choice':
      return choiceText(spec.values);
    case 'date':
      return dateText;
  }
}

const extraMemberName = oneOf<string>(
  [2, fc.constantFrom('id', 'colour', 'Name', 'categoryid', 'category_id', ' name', 'name ', 'tags')],
  [2, fc.constantFrom('__proto__', 'constructor', 'hasOwnProperty', 'toString', 'valueOf', '__defineGetter__')],
  [2, fc.string({ unit: 'binary', maxLength: 80 })],
);

const extraMember = fc.tuple(
  extraMemberName,
  oneOf<MemberValue>(
    [4, fc.jsonValue({ maxDepth: 3 }).map(json)],
    [1, fc.constantFrom('{"prototype":{"polluted":true}}', '{"__proto__":{"polluted":true}}')],
  ),
);

const nearTheBodyLimit = fc.integer({ min: BODY_LIMIT_BYTES - 48, max: BODY_LIMIT_BYTES + 48 });

// A string of about `bytes` bytes in all, with the rest of a small body around it.
const longString = fc
  .tuple(fc.constantFrom('x', 'é', '🐈'), nearTheBodyLimit)
  .map(([repeat, bytes]) => ({ repeat, times: Math.floor(bytes / Buffer.byteLength(repeat)) - 20 }));

const deepValue = fc.record({
  nest: fc.constantFrom<'[' | '{'>('[', '{'),
  depth: fc.integer({ min: JSON_DEPTH_LIMIT - 4, max: JSON_DEPTH_LIMIT + 4 }),
});

/** A member that makes the body big or deep: a long string near 16 KiB, or nesting near 32 levels. */
const heavyMember = fc.tuple(
  fc.constantFrom('pad', ...sentFieldEntries(PET_FIELDS).map(([field]) => field)),
  oneOf<MemberValue>([1, longString], [1, deepValue]),
);

const extraMembers = oneOf<Array<[string, MemberValue]>>(
  [16, fc.constant([])],
  [3, fc.array(extraMember, { minLength: 1, maxLength: 2 })],
  [1, fc.tuple(heavyMember)],
);

/** Each field a new pet sends, with a value of its kind: a required one nearly always there, an optional one now and then. */
const newPetMembers = fc.tuple(
  ...sentFieldEntries(PET_FIELDS).map(([field, spec]) =>
    sometimes(fieldText(spec), spec.optional ? 2 : 30, 1).map((value): Array<[string, MemberValue]> => (value === undefined ? [] : [[field, value]])),
  ),
);

/** Objects shaped like a NewPet: each field usually present and usually valid, now and then something more. */
export const newPetObject: fc.Arbitrary<ObjectBody> = fc
  .record({ fields: newPetMembers, extra: extraMembers, padToBytes: sometimes(nearTheBodyLimit, 1, 12) })
  .map(({ fields, extra, padToBytes }) => {
    const members = [...fields.flat(), ...extra];
    return padToBytes === undefined ? { members } : { members, padToBytes };
  });

const isObject = (value: unknown) => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Text that is not a JSON object: other JSON values, broken JSON, and arbitrary text. */
const notAnObject = oneOf<string>(
  [2, fc.jsonValue({ maxDepth: 2 }).filter((value) => !isObject(value)).map(json)],
  [1, fc.integer({ min: JSON_DEPTH_LIMIT - 3, max: JSON_DEPTH_LIMIT + 3 }).map((depth) => '['.repeat(depth) + ']'.repeat(depth))],
  [2, fc.tuple(newPetObject.map(renderObject), fc.nat()).map(([text, cut]) => text.slice(0, cut % text.length))],
  [2, fc.string({ unit: 'grapheme', maxLength: 40 })],
  [1, fc.constantFrom('', ' ', '{', '{"name":', 'NaN', "{'name':'Rex','categoryId':1}", '{"name":"Rex" "categoryId":1}')],
  [1, fc.constantFrom('{"name":"Rex","categoryId":1,}', '\uFEFF{"name":"Rex","categoryId":1}')],
);

export const bodySpec: fc.Arbitrary<BodySpec> = oneOf<BodySpec>(
  [8, newPetObject.map((object) => ({ object }))],
  [1, notAnObject.map((text) => ({ text }))],
);

const JSON_TYPES = ['application/json; charset=utf-8', 'Application/JSON', 'application/json;charset=UTF-8', 'APPLICATION/JSON; foo=bar'];
const OTHER_TYPES = ['text/plain', 'application/jsonx', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x'];
const NEAR_MISSES = ['application/problem+json', 'text/json', 'application/json,text/plain', 'json', '*/*', 'application/*'];

export const contentType: fc.Arbitrary<string | undefined> = oneOf<string | undefined>(
  [30, fc.constant('application/json')],
  [6, fc.constantFrom(...JSON_TYPES, 'application/json ; charset=utf-8')],
  [3, fc.constantFrom(...OTHER_TYPES, ...NEAR_MISSES)],
  [1, fc.constant(undefined)],
);

export const createPetCase: fc.Arbitrary<CreatePetCase> = fc
  .record({ contentType, query: strayQuery, body: bodySpec, chunks: sometimes(fc.integer({ min: 1, max: 9 }), 1, 5) })
  .map(({ contentType: type, chunks, ...rest }) => ({
    ...(type === undefined ? {} : { contentType: type }),
    ...rest,
    ...(chunks === undefined ? {} : { chunks }),
  }));

function renderValue(value: MemberValue): string {
  if (typeof value === 'string') return value;
  if ('repeat' in value) return json(value.repeat.repeat(value.times));
  if (value.nest === '[') return '['.repeat(value.depth) + ']'.repeat(value.depth);
  return '{"a":'.repeat(value.depth - 1) + '{}' + '}'.repeat(value.depth - 1);
}

function renderObject({ members, padToBytes }: ObjectBody): string {
  const text = `{${members.map(([name, value]) => `${json(name)}:${renderValue(value)}`).join(',')}}`;
  const missing = padToBytes === undefined ? 0 : padToBytes - Buffer.byteLength(text);
  return missing > 0 ? `{${' '.repeat(missing)}${text.slice(1)}` : text;
}

/** The body exactly as sent. */
export const renderBody = (body: BodySpec): string => ('text' in body ? body.text : renderObject(body.object));

// ------------------------------------------------------------------------------------------------------------- getPet

// Characters a URL path carries unchanged, `%` included, so that broken escapes reach the server as written.
const rawPathText = fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEFxyz-._~!$&\'()*+,;=:@%'), minLength: 1, maxLength: 12 });

/** A path segment exactly as written in the URL; `knownIds` are ids of stored pets. */
export function petIdSegment(knownIds: readonly number[]): fc.Arbitrary<string> {
  const knownId = fc.constantFrom(...knownIds);
  const escapedDigits = fc
    .tuple(knownId, fc.array(fc.boolean(), { minLength: 16, maxLength: 16 }))
    .map(([id, escaped]) => [...String(id)].map((digit, i) => (escaped[i] ? `%3${digit}` : digit)).join(''));
  const junkSuffixes = ['%00', '%20', '%2F', '%zz', '%E2%82', '%C3%A9', '%', ';x', ',2', '.0'];
  const edges = [0, -1, MAX_ID, MAX_ID + 1, INT64_MAX, INT64_MAX + 1n, -INT64_MAX - 1n, -INT64_MAX - 2n].map(String);
  return oneOf<string>(
    [5, knownId.map(String)],
    [1, fc.tuple(fc.integer({ min: 1, max: 24 }), knownId).map(([zeros, id]) => '0'.repeat(zeros) + id)],
    [1, escapedDigits],
    [2, fc.bigInt({ min: -INT64_MAX - 10n, max: INT64_MAX + 10n }).map(String)],
    [1, fc.constantFrom(...edges, '-0', '9'.repeat(23))],
    [1, fc.constantFrom('1.5', '1e3', '0x10', '+1', '%201', '1%20', '%2B1', '١', '%EF%BC%91')],
    [2, fc.string({ unit: 'grapheme', minLength: 1, maxLength: 16 }).map(encodeURIComponent)],
    [2, rawPathText],
    [1, fc.tuple(knownId, fc.constantFrom(...junkSuffixes)).map(([id, junk]) => `${id}${junk}`)],
  ).filter((segment) => new URL(`http://localhost/v1/pets/${segment}`).pathname === `/v1/pets/${segment}`);
}

// ----------------------------------------------------------------------------------------------------- authentication

export type Operation = 'listPets' | 'createPet' | 'getPet';

export interface AuthCase {
  operation: Operation;
  /** Absent: no Authorization header. */
  authorization?: string;
  /** What createPet sends; the other operations send no body. */
  create: CreatePetCase;
}

// Header values fetch() can send: tab, visible ASCII and space, and Latin-1 (as obs-text).
const headerChar = oneOf<string>(
  [8, fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code))],
  [1, fc.constant('\t')],
  [1, fc.integer({ min: 0x80, max: 0xff }).map((code) => String.fromCharCode(code))],
);
const headerText = fc.string({ unit: headerChar, maxLength: 48 });

/** The key, or near misses of it: a character dropped, added or changed in case, something appended, another token. */
function tokenNear(key: string): fc.Arbitrary<string> {
  const position = fc.nat({ max: key.length - 1 });
  const swapCase = (char: string) => (char === char.toLowerCase() ? char.toUpperCase() : char.toLowerCase());
  return oneOf<string>(
    [12, fc.constant(key)],
    [1, position.map((i) => key.slice(0, i) + key.slice(i + 1))],
    [1, fc.tuple(position, headerChar).map(([i, char]) => key.slice(0, i) + char + key.slice(i))],
    [1, position.map((i) => key.slice(0, i) + swapCase(key[i]) + key.slice(i + 1))],
    [1, fc.constantFrom(`${key}=`, `${key} ${key}`, `${key},`, `${key}, Bearer ${key}`, key.toUpperCase(), '', '=', `"${key}"`)],
    [1, headerText],
  );
}

/** Authorization values around `Bearer <key>`, and arbitrary ones. */
export function authorization(key: string): fc.Arbitrary<string | undefined> {
  const space = oneOf<string>([4, fc.constant('')], [1, fc.constantFrom(' ', '\t', ' \t ')]);
  const scheme = oneOf<string>(
    [4, fc.mixedCase(fc.constant('bearer'))],
    [1, fc.constantFrom('Basic', 'Token', 'Bearer:', 'Bearer.', 'Bearerx', '')],
  );
  const gap = oneOf<string>([6, fc.constant(' ')], [1, fc.constantFrom('  ', '\t', '', ' \t')]);
  return oneOf<string | undefined>(
    [1, fc.constant(undefined)],
    [2, headerText],
    [10, fc.tuple(space, scheme, gap, tokenNear(key), space).map((parts) => parts.join(''))],
  );
}

export const authCase = (key: string): fc.Arbitrary<AuthCase> =>
  fc
    .record({
      operation: fc.constantFrom<Operation>('listPets', 'createPet', 'getPet'),
      authorization: authorization(key),
      create: createPetCase,
    })
    .map(({ authorization: value, ...rest }) => (value === undefined ? rest : { ...rest, authorization: value }));

/** The statuses of `count` pets to seed a database with, drawn from `seed`. */
export const seededStatuses = (count: number, seed: number): Array<Pet['status']> =>
  fc.sample(fc.constantFrom(...PET_STATUSES), { seed, numRuns: count });
