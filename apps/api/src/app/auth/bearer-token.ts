// RFC 6750: the scheme word is case-insensitive, then one or more spaces and a token68.
const BEARER = /^bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/**
 * The bearer token of a request, or undefined when the header is absent, repeated or malformed.
 * `rawHeaders` is read because Node keeps only the first of duplicate `Authorization` headers.
 */
export function bearerToken(rawHeaders: readonly string[]): string | undefined {
  let value: string | undefined;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (rawHeaders[i].length === 13 && rawHeaders[i].toLowerCase() === 'authorization') {
      if (value !== undefined) return undefined;
      value = rawHeaders[i + 1];
    }
  }
  return value === undefined ? undefined : BEARER.exec(value)?.[1];
}
