import type { ListPetsQueryDto } from '@petstore/contract/dto';
import { filterEntries, LIST_LIMIT } from '@petstore/contract';

/**
 * RFC 8288 `Link` to the next page, absolute and built from the configured public address (never the request's
 * Host, which a client controls), keeping `limit` and every filter.
 */
export function nextPageLink(publicBaseUrl: string, query: ListPetsQueryDto, cursor: string): string {
  const params = new URLSearchParams({ limit: String(query.limit ?? LIST_LIMIT.default) });
  for (const [filter] of filterEntries()) {
    const value = query[filter];
    if (value !== undefined) params.set(filter, String(value));
  }
  params.set('cursor', cursor);
  // URLSearchParams writes a space as "+" (a literal "+" as "%2B"); "%20" means a space to every reader of a URL.
  return `<${publicBaseUrl}/pets?${String(params).replace(/\+/g, '%20')}>; rel="next"`;
}
