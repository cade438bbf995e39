import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Pet } from '@petstore/contract';
import { Webhook } from 'standardwebhooks';

/** One correctly signed pet.created that the receiver took in and answered 204. */
export interface Delivery {
  webhookId: string;
  pet: Pet;
}

export interface WebhookReceiver {
  /** e.g. http://127.0.0.1:41234/hooks */
  url: string;
  /** The endpoint's signing secret, whsec_… */
  secret: string;
  /** In arrival order, a webhook-id as often as it was taken in. */
  deliveries: Delivery[];
  /** Requests whose signature did not verify (answered 401). */
  badSignatures: () => number;
  /** Requests whose sender went away while the receiver was still working on them: not taken in. */
  cut: () => number;
  /** The remote ports of the requests being worked on now: whose they are (see localPortsTo). */
  openFrom: () => number[];
  /** Ends `hold`: the requests held are worked on now, and the next ones as they come. */
  release: () => void;
  /** Deliveries of a webhook-id taken in before. */
  duplicates: () => number;
  /** Until every pet has a delivery carrying it as acknowledged; false if `timeoutMs` ran out first. */
  waitForPets: (pets: Pet[], timeoutMs: number) => Promise<boolean>;
  /** The pets without such a delivery. */
  missing: (pets: Pet[]) => Pet[];
  close: () => Promise<void>;
}

/**
 * A webhook endpoint on 127.0.0.1 that checks every signature with the reference verifier (`standardwebhooks`),
 * works `delayMs` on each delivery and only then takes it in and answers 204, as a receiver that commits before it
 * answers would: a delivery whose sender dies meanwhile is not taken in, and must come again. With `hold`, it works on
 * nothing until `release()`: the deliveries stay in flight, so that a test can kill their sender at that moment.
 */
export async function startWebhookReceiver({ delayMs = 0, hold = false } = {}): Promise<WebhookReceiver> {
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const verifier = new Webhook(secret);
  const deliveries: Delivery[] = [];
  const counts = { badSignatures: 0, cut: 0 };
  const open = new Set<number>();
  let held: Array<() => void> | undefined = hold ? [] : undefined;
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', async () => {
      const headers = Object.fromEntries(['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) => [name, String(request.headers[name])]));
      let event: { data: Pet };
      try {
        event = verifier.verify(body, headers) as { data: Pet };
      } catch {
        counts.badSignatures++;
        response.writeHead(401).end();
        return;
      }
      const port = request.socket.remotePort ?? 0;
      open.add(port);
      if (held) await new Promise<void>((resolve) => held?.push(resolve));
      await sleep(delayMs);
      open.delete(port);
      if (response.destroyed) {
        counts.cut++;
        return;
      }
      deliveries.push({ webhookId: headers['webhook-id'], pet: event.data });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const missing = (pets: Pet[]) => {
    const delivered = new Map(deliveries.map(({ pet }) => [pet.id, pet]));
    return pets.filter((pet) => !samePet(delivered.get(pet.id), pet));
  };
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    secret,
    deliveries,
    badSignatures: () => counts.badSignatures,
    cut: () => counts.cut,
    openFrom: () => [...open],
    release: () => {
      const waiting = held ?? [];
      held = undefined;
      for (const resume of waiting) resume();
    },
    duplicates: () => deliveries.length - new Set(deliveries.map(({ webhookId }) => webhookId)).size,
    waitForPets: async (pets, timeoutMs) => {
      for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await sleep(100)) if (missing(pets).length === 0) return true;
      return missing(pets).length === 0;
    },
    missing,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * The same fields with the same values. Not `isDeepStrictEqual`: under Jest, a body parsed by `fetch` and one parsed
 * here have prototypes of different realms.
 */
export function samePet(a: Pet | undefined, b: Pet): boolean {
  return a !== undefined && Object.keys(a).length === Object.keys(b).length && (Object.keys(b) as Array<keyof Pet>).every((key) => a[key] === b[key]);
}
