import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { types } from 'node:util';
import { resolvePermittedAddresses, WebhookAddressError } from './address-policy';

/** `error` is short, fit for a log line and the outbox row. */
export interface DeliveryResult {
  outcome: 'delivered' | 'failed';
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/** One signed POST to one endpoint. */
export interface WebhookRequest {
  url: string;
  /** The Standard Webhooks headers of this attempt. */
  headers: Record<string, string>;
  body: string;
  /** The whole attempt's deadline: resolution, connection, sending and the response head. */
  timeoutMs: number;
  allowPrivate: boolean;
  /** Cancels the attempt, e.g. at shutdown. */
  signal?: AbortSignal;
}

// Read only to close the connection cleanly after a short answer; a longer one is cut (and never logged).
const RESPONSE_BODY_LIMIT = 4096;
const USER_AGENT = 'petstore-webhooks/1';

/** Kept open between attempts, sparing a stream of events a handshake per message. */
const KEEP_ALIVE = { keepAlive: true, timeout: 5_000, maxFreeSockets: 32 };
const agents = { 'http:': new HttpAgent(KEEP_ALIVE), 'https:': new HttpsAgent(KEEP_ALIVE) };

class DeadlineExceeded extends Error {}
class Cancelled extends Error {}

/**
 * Delivered on a 2xx answer, failed otherwise (a redirect too); never throws. The connection goes to the very addresses
 * checked, so that DNS rebinding cannot reach a refused one.
 */
export async function sendWebhook(request: WebhookRequest): Promise<DeliveryResult> {
  const started = performance.now();
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(new DeadlineExceeded()), request.timeoutMs);
  const cancel = () => stop.abort(new Cancelled());
  request.signal?.addEventListener('abort', cancel, { once: true });
  const result = (statusCode: number | null, error: string | null): DeliveryResult => ({
    outcome: error === null ? 'delivered' : 'failed',
    statusCode,
    error,
    durationMs: Math.round(performance.now() - started),
  });
  try {
    if (request.signal?.aborted) cancel();
    const statusCode = await post(request, stop.signal);
    if (statusCode >= 200 && statusCode < 300) return result(statusCode, null);
    return result(statusCode, statusCode >= 300 && statusCode < 400 ? `redirect not followed (HTTP ${statusCode})` : `HTTP ${statusCode}`);
  } catch (error) {
    return result(null, stop.signal.aborted ? describeStop(stop.signal.reason, request.timeoutMs) : describeFailure(error));
  } finally {
    clearTimeout(timer);
    request.signal?.removeEventListener('abort', cancel);
  }
}

/** Resolves once the head has arrived and the body has been read up to the limit. */
async function post(request: WebhookRequest, signal: AbortSignal): Promise<number> {
  const url = new URL(request.url);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`unsupported scheme ${url.protocol}`);
  const addresses = await untilAborted(resolvePermittedAddresses(url.hostname, request.allowPrivate), signal);
  return new Promise((resolve, reject) => {
    const outgoing = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
        ...request.headers,
        'content-length': String(Buffer.byteLength(request.body)),
      },
      lookup: pinnedLookup(addresses),
      agent: agents[url.protocol as keyof typeof agents],
      signal,
    });
    outgoing.on('error', reject);
    outgoing.on('response', (response: IncomingMessage) => {
      const statusCode = response.statusCode ?? 0;
      let ended = false;
      // Only an answer read to its end leaves its connection for reuse.
      const done = () => {
        if (!ended) outgoing.destroy();
        resolve(statusCode);
      };
      // From here on a failure, the deadline included, only cuts the body short: the status is known.
      outgoing.off('error', reject).on('error', done);
      let received = 0;
      response.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received >= RESPONSE_BODY_LIMIT) done();
      });
      response.on('error', done);
      response.on('end', () => {
        ended = true;
        resolve(statusCode);
      });
      response.on('close', done);
    });
    outgoing.end(request.body);
  });
}

function pinnedLookup(addresses: { address: string; family: 4 | 6 }[]): LookupFunction {
  // Node asks for every address when it may try each in turn (autoSelectFamily), else for one.
  return (_hostname, options, callback) => (options.all ? callback(null, addresses) : callback(null, addresses[0].address, addresses[0].family));
}

/** DNS lookups cannot be cancelled: the attempt stops waiting for one at the deadline. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  signal.throwIfAborted();
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function describeStop(reason: unknown, timeoutMs: number): string {
  return reason instanceof DeadlineExceeded ? `timeout after ${timeoutMs} ms` : 'cancelled';
}

const BY_CODE: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection closed before a response',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'DNS lookup failed',
  EPIPE: 'connection closed while sending',
  HPE_HEADER_OVERFLOW: 'response head too large',
};

/** Node's errors name hosts, codes and headers, never header values or bodies. */
function describeFailure(error: unknown): string {
  if (error instanceof WebhookAddressError) return `address refused: ${error.message}`;
  // isNativeError rather than instanceof: under Jest, Node's own errors come from another realm.
  if (!types.isNativeError(error)) return String(error).slice(0, 200);
  // Having tried several addresses, Node reports their failures together; the first says what went wrong.
  const { code, message } = ((error as Partial<AggregateError>).errors?.[0] ?? error) as NodeJS.ErrnoException;
  if (code && BY_CODE[code]) return BY_CODE[code];
  if (code && /CERT|TLS|SSL|SIGNATURE/.test(code)) return `TLS: ${message}`.slice(0, 200);
  return (code ? `${code}: ${message}` : message).slice(0, 200);
}
