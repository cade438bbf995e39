import { isPetStatus, type PetStatus } from '@petstore/contract';

// The status filter lives in the page's URL (`?status=sold`), so that a reload or a shared link keeps it.

export function statusInUrl(search: string = window.location.search): PetStatus | undefined {
  const status = new URLSearchParams(search).get('status');
  return isPetStatus(status) ? status : undefined;
}

/** The page's address with this filter (none: all pets), the rest of its query kept. */
export function urlWithStatus(status: PetStatus | undefined, location: Pick<Location, 'pathname' | 'search' | 'hash'> = window.location): string {
  const query = new URLSearchParams(location.search);
  if (status) query.set('status', status);
  else query.delete('status');
  const search = query.toString();
  return `${location.pathname}${search ? `?${search}` : ''}${location.hash}`;
}
