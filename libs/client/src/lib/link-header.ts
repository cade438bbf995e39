/**
 * The `cursor` of the RFC 8288 `rel="next"` link, or null when there is no next page.
 * Only the cursor is taken: the next request is built from the client's own base address.
 */
export function nextCursorFrom(link: string | null): string | null {
  if (!link) return null;
  for (const part of link.split(/,(?=\s*<)/)) {
    // Stryker disable next-line Regex: without the final `$` the same text matches, as a header value holds no line break.
    const match = /^\s*<([^>]*)>(.*)$/.exec(part);
    if (!match || !/;\s*rel="?([^";]*\s)?next(\s[^";]*)?"?\s*(;|$)/i.test(match[2])) continue;
    try {
      return new URL(match[1], 'http://relative.invalid').searchParams.get('cursor');
    } catch {
      return null;
    }
  }
  return null;
}
