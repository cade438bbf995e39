import { CURSOR_RULE, MAX_ID } from '@petstore/contract';
import { validationFailed } from '../errors/api-exception';

// A cursor is the id of the last pet of the previous page. Pages are keyed on id, which is increasing and never
// reused, so a walk sees every pet that existed when it began exactly once, and a pet added meanwhile at most once.
// The text is opaque to clients; the version prefix lets its format change without breaking links in flight.
const PREFIX = 'p1.';

export function encodeCursor(lastId: number): string {
  return Buffer.from(`${PREFIX}${lastId}`, 'utf8').toString('base64url');
}

/** The id after which the page starts; a cursor that this service did not make is a 400 naming `cursor`. */
export function decodeCursor(cursor: string): number {
  // The contract's rule: the bounds the OpenAPI document states, with the only characters encodeCursor writes.
  // Stryker disable next-line StringLiteral: any text without the prefix is refused alike
  const text = CURSOR_RULE.accepts(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const id = text.startsWith(PREFIX) && /^[1-9][0-9]{0,15}$/.test(text.slice(PREFIX.length)) ? Number(text.slice(PREFIX.length)) : NaN;
  // Stryker disable next-line ConditionalExpression: MAX_ID is the largest safe integer today; kept should it be lowered
  if (!Number.isSafeInteger(id) || id > MAX_ID) {
    throw validationFailed('Invalid query parameters: cursor is not a cursor this service made; take it from a Link header.');
  }
  return id;
}
