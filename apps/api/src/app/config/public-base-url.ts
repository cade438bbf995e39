import type { AddressInfo } from 'node:net';
import { API_PREFIX } from '@petstore/contract';

const WILDCARD_ADDRESSES = new Set(['0.0.0.0', '::']);

/**
 * The API's absolute address as clients are told it (the OpenAPI document's production server, `Link` headers):
 * PUBLIC_BASE_URL when set, else where this process listens, so that a service started on another port or host
 * names that one; never a request's `Host`, which a client controls. A wildcard address is named `localhost`, as a
 * person on this machine types it. Before the process listens (the committed document's export), the configured port.
 */
export function publicBaseUrl(
  { publicBaseUrl: configured, port }: { publicBaseUrl?: string; port: number },
  listening?: AddressInfo | string | null,
): string {
  if (configured) return configured;
  const { address, port: bound } = typeof listening === 'object' && listening ? listening : { address: '0.0.0.0', port };
  const host = WILDCARD_ADDRESSES.has(address) ? 'localhost' : address.includes(':') ? `[${address}]` : address;
  return `http://${host}:${bound}${API_PREFIX}`;
}
