import type { ListPetsQueryDto } from '@petstore/contract/dto';
import { LIST_LIMIT } from '@petstore/contract';

/**
 * RFC 8288 `Link` to the next page, absolute and built from the configured public address (never the request's
 * Host, which a client controls), keeping `limit` and `status`.
 */
export function nextPageLink(publicBaseUrl: string, query: ListPetsQueryDto, cursor: string): string {
  const params = new URLSearchParams({ limit: String(query.limit ?? LIST_LIMIT.default) });
  if (query.status) params.set('status', query.status);
  params.set('cursor', cursor);
  return `<${publicBaseUrl}/pets?${params}>; rel="next"`;
}
