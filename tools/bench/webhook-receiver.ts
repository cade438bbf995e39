import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The service's environment for delivering to the receiver: plain http to 127.0.0.1. */
export const WEBHOOK_RECEIVER_ENV = { WEBHOOK_ALLOW_INSECURE: 'true', WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' };

export interface WebhookReceiver {
  /** The endpoint's URL for one service, e.g. http://127.0.0.1:41234/sqlite: deliveries are counted by path. */
  urlFor(server: string): string;
  /** An endpoint's signing secret (whsec_…); the receiver does not check signatures. */
  secret: string;
  /** Deliveries received so far for one service. */
  received(server: string): number;
  close(): Promise<void>;
}

/**
 * `--webhook-receiver`: an endpoint that answers every delivery 204 as soon as its body has arrived, the cheapest a
 * receiver can be, so that what the service spends on delivering is what is measured. In the benchmark's process.
 */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const counts = new Map<string, number>();
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      counts.set(request.url ?? '', (counts.get(request.url ?? '') ?? 0) + 1);
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    urlFor: (name) => `${origin}/${name}`,
    secret: `whsec_${randomBytes(32).toString('base64')}`,
    received: (name) => counts.get(`/${name}`) ?? 0,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
