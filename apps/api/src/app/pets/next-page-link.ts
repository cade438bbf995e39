import type { ListPetsQueryDto } from '@petstore/contract/dto';
import { LIST_LIMIT } from '@petstore/contract';

/**
 * RFC 8288 `Link` to the next page, absolute and built from the configured public address (never the request's
 * Host, which a client controls), keeping `limit` and every filter.
 */
export function nextPageLink(publicBaseUrl: string, query: ListPetsQueryDto, cursor: string): string {
  const params = new URLSearchParams({ limit: String(query.limit ?? LIST_LIMIT.default) });
  if (query.status !== undefined) params.set('status', query.status);
  if (query.name !== undefined) params.set('name', query.name);
  if (query.categoryId !== undefined) params.set('categoryId', String(query.categoryId));
  params.set('cursor', cursor);
  // URLSearchParams writes a space as "+" (a literal "+" as "%2B"); "%20" means a space to every reader of a URL.
  return `<${publicBaseUrl}/pets?${String(params).replace(/\+/g, '%20')}>; rel="next"`;
}
