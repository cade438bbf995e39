import { type Scope, SCOPES } from '@petstore/contract';
import type { ValueTransformer } from 'typeorm';

const isScope = (value: string): value is Scope => (SCOPES as readonly string[]).includes(value);

/**
 * The scopes of `keys create --scopes`, comma-separated. An unknown scope, an empty list or item, or a repeated
 * scope is refused, naming it: a typo must not silently issue a key that can do less, or more, than meant.
 */
export function parseScopes(text: string): Scope[] {
  const items = text.split(',').map((item) => item.trim());
  const scopes: Scope[] = [];
  for (const item of items) {
    if (item === '') throw new Error(`an empty scope in "${text}"; name one or more of ${SCOPES.join(', ')}.`);
    if (!isScope(item)) throw new Error(`unknown scope "${item}"; the scopes are ${SCOPES.join(', ')}.`);
    if (scopes.includes(item)) throw new Error(`scope "${item}" is named twice.`);
    scopes.push(item);
  }
  return SCOPES.filter((scope) => scopes.includes(scope));
}

/**
 * Scopes are stored as one space-separated string, as OAuth writes a `scope`. Reading ignores anything unknown,
 * so that a key never gains a scope by a stored typo.
 */
export const scopeList: ValueTransformer = {
  from: (value: unknown) => (typeof value === 'string' ? value.split(' ').filter(isScope) : value),
  to: (value: unknown) => (Array.isArray(value) ? value.join(' ') : value),
};
