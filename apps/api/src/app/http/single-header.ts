/** What `singleHeader` answers for a header that a request sent more than once. */
export const REPEATED = Symbol('repeated header');

/**
 * The value of a header that must be sent at most once, from `rawHeaders`: Node keeps only the first of some
 * duplicates (`Authorization`) and joins others with ", ", so neither `headers` view can tell a repeat apart.
 * @param name lower-case
 */
export function singleHeader(rawHeaders: readonly string[], name: string): string | undefined | typeof REPEATED {
  let value: string | undefined;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (rawHeaders[i].length === name.length && rawHeaders[i].toLowerCase() === name) {
      if (value !== undefined) return REPEATED;
      value = rawHeaders[i + 1];
    }
  }
  return value;
}
