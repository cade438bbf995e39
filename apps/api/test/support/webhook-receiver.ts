import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
  /** What the receiver answered: a status, or `hang` (no answer, the sender times out). */
  answered: number | 'hang';
}

export interface WebhookReceiver {
  /** e.g. http://127.0.0.1:41234/hooks */
  url: string;
  received: ReceivedWebhook[];
  /** Every delivery answered 2xx, by webhook-id. */
  deliveredIds: () => string[];
  close: () => Promise<void>;
}

/**
 * A webhook endpoint on an ephemeral port that records every request. `answer` decides each response from the
 * request's number (from 0) and its webhook-id; by default 204.
 */
export async function startWebhookReceiver(answer: (index: number, id: string) => number | 'hang' = () => 204): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const answered = answer(received.length, String(request.headers['webhook-id']));
      received.push({ headers: request.headers, body, answered });
      if (answered !== 'hang') response.writeHead(answered).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    deliveredIds: () => received.filter(({ answered }) => answered !== 'hang' && answered < 300).map(({ headers }) => String(headers['webhook-id'])),
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
