import { describeProblem, type FieldRule } from '@petstore/contract';
import { type Command, InvalidArgumentError } from 'commander';
import { usageError } from './usage';

/**
 * The value of an option or argument, if the contract's `rule` accepts what `read` makes of its text; otherwise a usage
 * error in the rule's words, naming the option. Checked in the action rather than as commander parses, so that
 * --api-key is known first: the text is echoed back, and a key typed into the wrong option is then redacted.
 */
export function checked<T>(command: Command, name: string, text: string, rule: FieldRule, read?: (text: string) => unknown): T;
export function checked<T>(command: Command, name: string, text: string | undefined, rule: FieldRule, read?: (text: string) => unknown): T | undefined;
export function checked<T>(
  command: Command,
  name: string,
  text: string | undefined,
  rule: FieldRule,
  read: (text: string) => unknown = (value) => value,
): T | undefined {
  if (text === undefined) return undefined;
  const value = read(text);
  const problem = rule.check(value);
  if (!problem) return value as T;
  // A length problem already says what it counted; a long value repeated would only bury the sentence.
  return usageError(command, problem.kind === 'tooLong' ? describeProblem(name, problem) : `${describeProblem(name, problem)} (got ${shown(text)})`);
}

/**
 * A whole number in base 10 as that number (a sign allowed, so that "-1" is out of range); any other text, "1e3" or
 * "0x10" included, as NaN, which the contract's rules refuse.
 */
export function wholeNumber(text: string): number {
  return /^-?\d+$/.test(text) ? Number(text) : Number.NaN;
}

/** Visible ASCII as typed; anything else quoted, so that an empty value, spaces and control characters show. */
function shown(text: string): string {
  return /^[\x21-\x7e]+$/.test(text) ? text : JSON.stringify(text);
}

/** Commander argument parser for the service address: an absolute http(s) URL. */
export function parseServiceUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError('Expected an absolute URL such as http://localhost:3000/v1.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidArgumentError('Expected an http or https URL.');
  return value;
}
