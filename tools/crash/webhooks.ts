import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Pet } from '@petstore/contract';
import { Webhook } from 'standardwebhooks';

/**
 * The service's environment in a run with webhooks: plain http to 127.0.0.1, quick retries, and a short attempt
 * deadline, which shortens the lease on a claimed message to 21 s (the deadline plus the dispatcher's 20 s margin):
 * what a killed instance had claimed is attempted again after that.
 */
export const WEBHOOK_ENV = {
  WEBHOOK_ALLOW_INSECURE: 'true',
  WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
  WEBHOOK_RETRY_SCHEDULE: '0.2,0.5,1,1,1,1,1,1,1,1',
  WEBHOOK_TIMEOUT_MS: '1000',
};
/** How long the end of the run waits for the last deliveries: a lease taken just before the last kill, then retries. */
const PATIENCE_MS = 30_000;
/** Answers 500 to this share of the correctly signed deliveries, so that retries are exercised too. */
const REFUSED_SHARE = 0.1;

export interface WebhookFigures {
  /** Acknowledged pets: each must have its pet.created delivered. */
  expected: number;
  /** Acknowledged pets with a correctly signed delivery answered 2xx, carrying the pet as acknowledged. */
  delivered: number;
  /** Acknowledged pets without one, after the wait. */
  missing: number;
  /** Requests whose signature did not verify. */
  badSignatures: number;
  /** Correctly signed deliveries whose pet is not stored as they carry it (or that carry no pet). */
  unstored: number;
  /** Deliveries answered 2xx of a webhook-id that had been answered 2xx before: allowed (at least once), counted. */
  duplicates: number;
  /** Correctly signed deliveries answered 500 on purpose (each is retried). */
  refused: number;
  /** Anything else unexpected: an event of another type, a pet under two webhook-ids, one webhook-id with two bodies. */
  otherErrors: number;
  /** From the end of the last cycle until every acknowledged pet had its delivery, or the wait ran out. */
  waitedSeconds: number;
  problems: string[];
}

interface Delivery {
  pet: unknown;
  /** Times answered 2xx. */
  times: number;
}

/**
 * A webhook endpoint on 127.0.0.1 for the run: verifies each request's Standard Webhooks signature with the reference
 * verifier, answers 204 (or, drawn from `random`, 500) and records the deliveries by webhook-id.
 */
export class WebhookReceiver {
  readonly secret = `whsec_${randomBytes(32).toString('base64')}`;
  private readonly verifier = new Webhook(this.secret);
  private readonly deliveries = new Map<string, Delivery>();
  private readonly counts = { badSignatures: 0, duplicates: 0, refused: 0 };
  private readonly problems: string[] = [];

  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly random: () => number,
  ) {}

  static async start(random: () => number): Promise<WebhookReceiver> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const receiver = new WebhookReceiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, random);
    server.on('request', (request, response) => {
      let body = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => (body += chunk));
      request.on('end', () => response.writeHead(receiver.receive(request.headers, body)).end());
    });
    return receiver;
  }

  /** Acknowledged pets with a delivery so far. */
  deliveredCount(acknowledged: Pet[]): number {
    const delivered = this.deliveredPets();
    return acknowledged.filter((pet) => samePet(delivered.get(pet.id), pet)).length;
  }

  /** Until every acknowledged pet has a delivery, or the patience runs out. */
  async waitForAll(acknowledged: Pet[]): Promise<number> {
    const started = performance.now();
    while (this.deliveredCount(acknowledged) < acknowledged.length && performance.now() - started < PATIENCE_MS) {
      await sleep(100);
    }
    return (performance.now() - started) / 1000;
  }

  /** The deliveries against the acknowledged pets and the table as read at the end. */
  check(acknowledged: Pet[], stored: Pet[], waitedSeconds: number): WebhookFigures {
    const problems = [...this.problems];
    const delivered = this.deliveredPets();
    const missing = acknowledged.filter((pet) => !samePet(delivered.get(pet.id), pet));
    for (const pet of missing.slice(0, 20)) problems.push(`missing: no delivery of pet.created for acknowledged ${json(pet)}`);
    const rows = new Map(stored.map((pet) => [pet.id, pet]));
    const idsOfPet = new Map<number, string[]>();
    let unstored = 0;
    for (const [id, { pet }] of this.deliveries) {
      const row = rows.get((pet as Pet | undefined)?.id ?? NaN);
      if (!row || !samePet(row, pet)) {
        if (unstored++ < 20) problems.push(`unstored: ${id} carried ${json(pet)}, ${row ? `stored as ${json(row)}` : 'which is not stored'}`);
      } else {
        idsOfPet.set(row.id, [...(idsOfPet.get(row.id) ?? []), id]);
      }
    }
    // One message per pet and endpoint: two webhook-ids for one pet are two events a receiver cannot deduplicate.
    for (const [petId, ids] of idsOfPet) if (ids.length > 1) problems.push(`other: pet ${petId} was delivered under ${ids.join(', ')}`);
    return {
      expected: acknowledged.length,
      delivered: acknowledged.length - missing.length,
      missing: missing.length,
      unstored,
      ...this.counts,
      otherErrors: problems.filter((problem) => problem.startsWith('other:')).length,
      waitedSeconds,
      problems,
    };
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** The status to answer. */
  private receive(headers: IncomingHttpHeaders, body: string): number {
    const id = String(headers['webhook-id']);
    let event: { type?: unknown; data?: unknown };
    try {
      const signed = Object.fromEntries(['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) => [name, String(headers[name])]));
      event = this.verifier.verify(body, signed) as typeof event;
    } catch (error) {
      // The first few say enough; a wrong secret fails them all.
      if (this.counts.badSignatures++ < 20) this.problems.push(`bad signature: ${id}: ${(error as Error).message}`);
      return 401;
    }
    if (this.random() < REFUSED_SHARE) {
      this.counts.refused++;
      return 500;
    }
    if (event.type !== 'pet.created') this.problems.push(`other: ${id} is of type ${json(event.type)}`);
    const delivery = this.deliveries.get(id);
    if (delivery) {
      delivery.times++;
      this.counts.duplicates++;
      if (!samePet(delivery.pet, event.data)) this.problems.push(`other: ${id} carried ${json(delivery.pet)}, then ${json(event.data)}`);
    } else {
      this.deliveries.set(id, { pet: event.data, times: 1 });
    }
    return 204;
  }

  private deliveredPets(): Map<number, unknown> {
    return new Map([...this.deliveries.values()].map(({ pet }) => [(pet as Pet | undefined)?.id ?? NaN, pet]));
  }
}

/** The same fields with the same values. */
function samePet(a: unknown, b: unknown): boolean {
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => (a as Record<string, unknown>)[key] === (b as Record<string, unknown>)[key]);
}

const json = (value: unknown) => JSON.stringify(value);
