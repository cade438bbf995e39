import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';

/** Lets the service deliver to this receiver, which listens on 127.0.0.1 over plain http (refused by default). */
export const WEBHOOK_RECEIVER_ENV = { WEBHOOK_ALLOW_INSECURE: 'true', WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' };

/** One request, as it arrived and was answered. */
export interface ReceivedWebhook {
  /** The same for every attempt of one message. */
  webhookId: string;
  headers: IncomingHttpHeaders;
  /** As it arrived: what the signature covers. */
  body: string;
  /** Undefined if the body is not JSON. */
  event: unknown;
  /** Tells which process sent it (see localPortsTo). */
  remotePort: number;
  /** With `verify`: why its signature failed (answered 401). */
  badSignature?: string;
  /** `hang`: never answered; `cut`: the sender went away first, so it must come again; undefined while in flight. */
  answered?: number | 'hang' | 'cut';
}

export interface WebhookReceiverOptions {
  /** 204 by default. Asked only when due (after `hold` and `delayMs`), so a test may change its mind meanwhile. */
  answer?: (index: number, request: ReceivedWebhook) => number | 'hang';
  /** Answers a bad signature 401; off when the test checks a secret of the service's making itself. */
  verify?: boolean;
  /** Delay before answering, as a receiver that commits first: a request whose sender dies meanwhile is `cut`. */
  delayMs?: number;
  /** Keeps every request in flight until `release()`, so that a test can kill its sender then. */
  hold?: boolean;
  /** False: only counts (no `received`, no `duplicates`), so that a benchmark's deliveries do not pile up. */
  record?: boolean;
}

/** What the receiver has seen so far. */
export interface WebhookCounts {
  received: number;
  /** Answered 2xx. */
  delivered: number;
  /** Delivered again (at-least-once delivery allows it). */
  duplicates: number;
  badSignatures: number;
  cut: number;
}

export interface WebhookReceiver {
  /** The endpoint to register, e.g. http://127.0.0.1:41234/hooks */
  readonly url: string;
  /** The signing secret (whsec_…) to register it with. */
  readonly secret: string;
  /** In arrival order, from the moment each body has arrived. */
  readonly received: readonly ReceivedWebhook[];
  /** Answered 2xx, in arrival order, duplicates included. */
  delivered(): ReceivedWebhook[];
  counts(): WebhookCounts;
  /** Remote ports of the requests in flight now (see localPortsTo). */
  openFrom(): number[];
  /** Ends `hold`, for the requests held and those to come. */
  release(): void;
  /** Waits until `done()` holds, checked as requests arrive or are answered; false if `timeoutMs` ran out first. */
  waitFor(done: () => boolean, timeoutMs?: number): Promise<boolean>;
  /** Also cuts the connections of requests left hanging. */
  close(): Promise<void>;
}

/** As Jest's testTimeout: a generous deadline for a slow machine, not a measure. */
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
  // listen(0) leaves no gap for another process to take the port (freePort is for ports named before binding).
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
