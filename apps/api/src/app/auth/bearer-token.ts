import { REPEATED, singleHeader } from '../http/single-header';

// RFC 6750: the scheme word is case-insensitive, then one or more spaces and a token68.
const BEARER = /^bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/** The bearer token of a request, or undefined when the header is absent, repeated or malformed. */
export function bearerToken(rawHeaders: readonly string[]): string | undefined {
  const value = singleHeader(rawHeaders, 'authorization');
  return value === undefined || value === REPEATED ? undefined : BEARER.exec(value)?.[1];
}
