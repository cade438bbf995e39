import { promises as dns } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import pLimit from 'p-limit';

/** A webhook URL, or an address its host resolves to, that the service refuses to call. */
export class WebhookAddressError extends Error {
  override readonly name = 'WebhookAddressError';
}

/** The longest webhook URL accepted. */
export const WEBHOOK_URL_MAX_LENGTH = 2048;

// A URL that resolves to one of these would let whoever registers it make the service call inside its own network.
const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, including the metadata service at 169.254.169.254
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast address 255.255.255.255
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b:1::', 48], // NAT64 for local use
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local, including the metadata service at fd00:ec2::254
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local, deprecated but still routed by some stacks
  ['ff00::', 8], // multicast
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

// IPv6 addresses that reach the IPv4 address in their last 32 bits (IPv4-mapped, NAT64).
const EMBEDS_IPV4 = new BlockList();
EMBEDS_IPV4.addSubnet('::ffff:0:0', 96, 'ipv6');
EMBEDS_IPV4.addSubnet('64:ff9b::', 96, 'ipv6');

/** False for loopback, private, link-local, metadata and reserved ranges. */
export function isPublicAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 4) return !NOT_PUBLIC.check(ip, 'ipv4');
  // A zone index (fe80::1%eth0) names a local interface: never a public address.
  if (family !== 6 || ip.includes('%')) return false;
  if (EMBEDS_IPV4.check(ip, 'ipv6')) return isPublicAddress(embeddedIpv4(ip));
  return !NOT_PUBLIC.check(ip, 'ipv6');
}

/** Refused as a whole when any address is not public (unless allowed): the connection may go to any of them. */
export async function resolvePermittedAddresses(hostname: string, allowPrivate: boolean): Promise<{ address: string; family: 4 | 6 }[]> {
  const host = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  const literal = isIP(host);
  const addresses = literal ? [{ address: host, family: literal }] : await lookup(host);
  if (addresses.length === 0) throw new WebhookAddressError(`webhook host "${host}" resolves to no address`);
  const refused = allowPrivate ? undefined : addresses.find(({ address }) => !isPublicAddress(address));
  if (refused) {
    const where = literal ? `webhook address ${host} is` : `webhook host "${host}" resolves to ${refused.address},`;
    throw new WebhookAddressError(`${where} a loopback/private/link-local address; set WEBHOOK_ALLOW_PRIVATE_ADDRESSES=true to allow it`);
  }
  return addresses.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
}

/**
 * Refuses credentials (sent to whoever answers, and logged) and `http:` unless allowed; the host's addresses are
 * resolvePermittedAddresses's to check.
 */
export function checkWebhookUrl(raw: string, options: { allowInsecure: boolean }): URL {
  if (raw.length > WEBHOOK_URL_MAX_LENGTH) throw new WebhookAddressError(`webhook URL is longer than ${WEBHOOK_URL_MAX_LENGTH} characters`);
  // The messages never quote the URL: a refused one may hold a password.
  if (!URL.canParse(raw)) throw new WebhookAddressError('webhook URL is not an absolute URL');
  const url = new URL(raw);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new WebhookAddressError(`webhook URL must use https, not ${url.protocol}`);
  if (url.protocol === 'http:' && !options.allowInsecure) {
    throw new WebhookAddressError('webhook URL must use https; set WEBHOOK_ALLOW_INSECURE=true to allow http');
  }
  if (url.username || url.password) throw new WebhookAddressError('webhook URL must not contain a user name or password');
  // `hash` is empty for a bare trailing "#", which the serialised URL still carries.
  if (url.href.includes('#')) throw new WebhookAddressError('webhook URL must not contain a fragment');
  return url;
}

type ResolvedAddress = { address: string; family: number };

// getaddrinfo holds a libuv pool thread until the resolver answers, and SQLite needs them too: lookups are shared per
// host and limited, so that a slow resolver cannot take the pool from the database.
const lookupSlots = pLimit(2);
const lookupsUnderWay = new Map<string, Promise<ResolvedAddress[]>>();

async function lookup(host: string): Promise<ResolvedAddress[]> {
  let underWay = lookupsUnderWay.get(host);
  if (!underWay) {
    underWay = lookupSlots(() => dns.lookup(host, { all: true, order: 'verbatim' })).finally(() => lookupsUnderWay.delete(host));
    lookupsUnderWay.set(host, underWay);
  }
  try {
    return await underWay;
  } catch (error) {
    // A name that does not exist is the URL's fault; a failing resolver is passed on as it is.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTFOUND' || code === 'ENODATA') throw new WebhookAddressError(`webhook host "${host}" does not resolve`);
    throw error;
  }
}

/** The last 32 bits may be written in hexadecimal groups or dotted. */
function embeddedIpv4(ip: string): string {
  const groups = ip.split(':');
  const last = groups[groups.length - 1];
  if (last.includes('.')) return last;
  // An empty group is the "::" run of zero groups.
  const [high, low] = groups.slice(-2).map((group) => parseInt(group || '0', 16));
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}
