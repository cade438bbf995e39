import { type FieldList, type FieldProblem, fieldProblems, type NewPet, PET_FIELDS } from '@petstore/contract';

type Problems = { [P in FieldProblem as P['kind']]: P };
type Words = { [K in keyof Problems]: (field: string, problem: Problems[K], value: unknown) => string };

const RETYPE = 'Type it again rather than pasting it.';

/** "a, b or c". */
const oneOf = (values: readonly string[]) => (values.length < 2 ? values.join('') : `${values.slice(0, -1).join(', ')} or ${values.at(-1)}`);

/**
 * A shop assistant's words for each kind of problem, `field` being the label mid-sentence ("name"). A kind the
 * contract adds fails the type check until it has words here. No names of characters a person cannot see (NUL).
 */
const WORDS: Words = {
  missing: (field) => `Enter a ${field}.`,
  notString: (field) => `The ${field} must be text.`,
  blank: (field) => `Enter a ${field}: spaces alone do not count.`,
  tooLong: (field, { max, length }) => `The ${field} is too long: at most ${max} characters (this one has ${length}).`,
  tooShort: (field, { min, length }) => `The ${field} is too short: at least ${min} characters (this one has ${length}).`,
  nulCharacter: (field) => `The ${field} contains a hidden character that cannot be saved. ${RETYPE}`,
  controlCharacter: (field) => `The ${field} contains a hidden character (a tab or a line break) that cannot be searched for. ${RETYPE}`,
  unpairedSurrogate: (field) => `The ${field} contains a broken character (half of an emoji or symbol) that cannot be saved. ${RETYPE}`,
  // "Whole number" and "1 or more" are what a person can act on; the service's "from 1 to 9007199254740991" is not.
  notWholeNumber: (field) => `The ${field} must be a whole number, such as 3.`,
  // The rule says only that the value is outside its range; which side decides what the person should do.
  outOfRange: (field, { min }, value) => (typeof value === 'number' && value < min ? `The ${field} must be ${min} or more.` : `The ${field} number is too large.`),
  notOneOf: (field, { values }) => `Choose a ${field}: ${oneOf(values)}.`,
  notDate: (field) => `The ${field} must be a date such as 2024-05-31.`,
  // The opaque strings' rule (a cursor, an Idempotency-Key), which no field of the form has.
  disallowedCharacters: (field) => `The ${field} contains characters that are not allowed. ${RETYPE}`,
};

// Generic over the kind, so that the problem and its words are known to match (TypeScript's correlated unions).
const say = <K extends keyof Problems>(field: string, problem: Problems[K] & { kind: K }, value: unknown): string => WORDS[problem.kind](field, problem, value);

/** What is wrong with `value`, in a shop assistant's words, naming the field by its label. */
export const describeFieldProblem = (label: string, problem: FieldProblem, value: unknown): string => say(label.toLowerCase(), problem, value);

/** What the service would refuse in these fields, by field, in the storefront's words. */
export function problemWords<T>(fields: FieldList<T>, values: { readonly [F in keyof T]?: unknown }): Partial<Record<keyof T, string>> {
  const words: Partial<Record<keyof T, string>> = {};
  for (const [field, problem] of Object.entries(fieldProblems(fields, values)) as Array<[keyof T, FieldProblem]>) {
    words[field] = describeFieldProblem(fields[field].label, problem, values[field]);
  }
  return words;
}

/** The same for a new pet. */
export const newPetProblemWords = (pet: { readonly [F in keyof NewPet]?: unknown }) => problemWords(PET_FIELDS, pet);
