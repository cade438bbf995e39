import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';

/** Lets the service deliver to this receiver, which listens on 127.0.0.1 over plain http (refused by default). */
export const WEBHOOK_RECEIVER_ENV = { WEBHOOK_ALLOW_INSECURE: 'true', WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' };

/** One request to the receiver, as it arrived and as it was answered. */
export interface ReceivedWebhook {
  /** Its webhook-id header: the same for every attempt of one message. */
  webhookId: string;
  headers: IncomingHttpHeaders;
  /** The body as it arrived: what the signature covers. */
  body: string;
  /** The body parsed, or undefined if it is not JSON. */
  event: unknown;
  /** The sender's port on its end of the connection: which process sent it (see localPortsTo). */
  remotePort: number;
  /** With `verify`: why its signature failed; answered 401, not counted as delivered. */
  badSignature?: string;
  /**
   * A status; `hang`: never answered (the sender's attempt times out); `cut`: the sender went away before the answer,
   * so it was not taken in and must come again; undefined while it is held or worked on.
   */
  answered?: number | 'hang' | 'cut';
}

export interface WebhookReceiverOptions {
  /**
   * The answer to request number `index` (from 0); 204 by default. Asked when due (after `hold` and `delayMs`), so a
   * test may change its mind meanwhile.
   */
  answer?: (index: number, request: ReceivedWebhook) => number | 'hang';
  /**
   * Checks each signature against `secret` (`standardwebhooks`), answering a bad one 401; off when the test checks a
   * secret of the service's making itself.
   */
  verify?: boolean;
  /**
   * Works this long on each request before answering, as a receiver that commits first: a request whose sender dies
   * meanwhile is `cut`, not taken in.
   */
  delayMs?: number;
  /** Works on nothing until `release()`: every request stays in flight, so that a test can kill its sender then. */
  hold?: boolean;
  /** False: only counts (`received` stays empty, `duplicates` 0), so that a benchmark's deliveries do not pile up. */
  record?: boolean;
}

/** What the receiver has seen so far. */
export interface WebhookCounts {
  /** Requests, whatever their answer. */
  received: number;
  /** Requests answered 2xx: taken in. */
  delivered: number;
  /** Of those, the ones whose webhook-id was taken in before (at-least-once delivery allows them). */
  duplicates: number;
  /** With `verify`: requests answered 401. */
  badSignatures: number;
  /** Requests whose sender went away before the answer. */
  cut: number;
}

export interface WebhookReceiver {
  /** The endpoint to register, e.g. http://127.0.0.1:41234/hooks */
  readonly url: string;
  /** The signing secret to register it with (whsec_…), which `verify` checks against. */
  readonly secret: string;
  /** Every request, in arrival order, from the moment its body has arrived (see `answered`). */
  readonly received: readonly ReceivedWebhook[];
  /** The requests answered 2xx, in arrival order: a webhook-id as often as it was taken in. */
  delivered(): ReceivedWebhook[];
  counts(): WebhookCounts;
  /** The remote ports of the requests held or worked on now: whose they are (see localPortsTo). */
  openFrom(): number[];
  /** Ends `hold`: the requests held are worked on now, and the next ones as they come. */
  release(): void;
  /**
   * Until `done()` holds, checked whenever a request arrives or is answered; false if `timeoutMs` ran out first (a
   * generous deadline for a slow machine, not a measure).
   */
  waitFor(done: () => boolean, timeoutMs?: number): Promise<boolean>;
  /** Stops listening and cuts the connections still open (those of requests left hanging). */
  close(): Promise<void>;
}

/** `waitFor`'s default, as Jest's testTimeout: room for a machine several times slower than a quiet one. */
const WAIT_MS = 60_000;

/** A webhook endpoint on 127.0.0.1 that records what it is sent and answers as the test chooses. */
export async function startWebhookReceiver(options: WebhookReceiverOptions = {}): Promise<WebhookReceiver> {
  const { answer = () => 204, verify = false, delayMs = 0, hold = false, record = true } = options;
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const verifier = new Webhook(secret);
  const received: ReceivedWebhook[] = [];
  const delivered: ReceivedWebhook[] = [];
  const deliveredIds = new Set<string>();
  const counts: WebhookCounts = { received: 0, delivered: 0, duplicates: 0, badSignatures: 0, cut: 0 };
  const open = new Set<ReceivedWebhook>();
  let held: Array<() => void> | undefined = hold ? [] : undefined;

  // The waits' checks run once per burst of events, not once per request.
  const checks = new Set<() => void>();
  let checking = false;
  const changed = () => {
    if (checking || checks.size === 0) return;
    checking = true;
    setImmediate(() => {
      checking = false;
      for (const check of checks) check();
    });
  };

  const finish = (request: ReceivedWebhook, status: number | 'hang' | 'cut') => {
    request.answered = status;
    open.delete(request);
    if (status === 'cut') counts.cut++;
    else if (status !== 'hang' && status >= 200 && status < 300) {
      counts.delivered++;
      if (record) {
        if (deliveredIds.has(request.webhookId)) counts.duplicates++;
        deliveredIds.add(request.webhookId);
        delivered.push(request);
      }
    }
    changed();
  };

  const server = createServer((incoming, response) => {
    let body = '';
    incoming.setEncoding('utf8');
    incoming.on('data', (chunk: string) => (body += chunk));
    incoming.on('end', async () => {
      const { headers } = incoming;
      const request: ReceivedWebhook = { webhookId: String(headers['webhook-id']), headers, body, event: parse(body), remotePort: incoming.socket.remotePort ?? 0 };
      const index = counts.received++;
      if (record) received.push(request);
      if (verify) {
        try {
          const signed = { 'webhook-id': request.webhookId, 'webhook-timestamp': String(headers['webhook-timestamp']), 'webhook-signature': String(headers['webhook-signature']) };
          request.event = verifier.verify(body, signed);
        } catch (error) {
          request.badSignature = (error as Error).message;
          counts.badSignatures++;
          finish(request, 401);
          response.writeHead(401).end();
          return;
        }
      }
      open.add(request);
      // A sender that goes away before the answer: counted at once, not when the work would have ended.
      response.on('close', () => request.answered === undefined && finish(request, 'cut'));
      changed();
      if (held) await new Promise<void>((resume) => held?.push(resume));
      if (delayMs > 0 && request.answered === undefined) await sleep(delayMs);
      if (request.answered !== undefined) return;
      const status = answer(index, request);
      finish(request, status);
      if (status !== 'hang') response.writeHead(status).end();
    });
  });
  // listen(0): the kernel's port is ours from the moment it is picked, with no gap for another process to take it
  // (freePort is for ports that must be named before they are bound).
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    secret,
    received,
    delivered: () => [...delivered],
    counts: () => ({ ...counts }),
    openFrom: () => [...open].map(({ remotePort }) => remotePort),
    release: () => {
      const waiting = held ?? [];
      held = undefined;
      for (const resume of waiting) resume();
    },
    waitFor: async (done, timeoutMs = WAIT_MS) => {
      if (done()) return true;
      const deadline = new AbortController();
      let check!: () => void;
      const met = new Promise<boolean>((resolve) => (check = () => done() && resolve(true)));
      checks.add(check);
      try {
        return await Promise.race([met, sleep(timeoutMs, undefined, { signal: deadline.signal }).then(done, () => false)]);
      } finally {
        checks.delete(check);
        deadline.abort();
      }
    },
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

function parse(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}
