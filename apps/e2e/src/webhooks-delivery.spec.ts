import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Pet } from '@petstore/contract';
import {
  killNode,
  localPortsTo,
  type NodeProcess,
  registerWebhookEndpoint,
  spawnService,
  startWebhookReceiver,
  stopNode,
  waitUntilReady,
  WEBHOOK_RECEIVER_ENV,
  type WebhookReceiver,
} from '@petstore/testing';
import { admin, POSTGRES_ADMIN_URL } from './support/cluster';
import { TEST_KEY } from './support/test-key';

// What webhooks promise: pet.created delivered at least once, across crashes and instances, each message attempted by
// one instance at a time. The services run as `npm start` runs them, as separate processes, killed with SIGKILL.

const WEBHOOK_ENV = { ...WEBHOOK_RECEIVER_ENV, WEBHOOK_RETRY_SCHEDULE: '0.2,0.5,1,1,1' };
/**
 * The lease on a claimed message is the attempt's deadline (10 s by default) plus the dispatcher's 20 s margin: the
 * messages whose attempts a kill cuts come again after it.
 */
const LEASE_MS = 30_000;
/** Long enough for a killed instance's leases to run out and for their messages to be delivered after that. */
const AFTER_A_KILL_MS = LEASE_MS + 30_000;
/** A receiver that takes this long on each delivery keeps many in flight: 32 per instance. */
const SLOW_MS = 300;

jest.setTimeout(180_000);

async function startInstance(databaseUrl: string, env: Record<string, string> = {}): Promise<NodeProcess> {
  const service = await spawnService({ env: { NODE_ENV: 'production', API_KEYS: TEST_KEY, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', ...WEBHOOK_ENV, ...env } });
  try {
    await waitUntilReady(service);
    return service;
  } catch (error) {
    await stopNode(service);
    throw error;
  }
}

/** `count` creates, 16 at a time, sent to the origins in turn; the pets their 201s returned. */
async function createPets(origins: string[], count: number, prefix: string): Promise<Pet[]> {
  const pets: Pet[] = [];
  let sent = 0;
  const client = async () => {
    for (let n = sent++; n < count; n = sent++) {
      const response = await fetch(`${origins[n % origins.length]}/v1/pets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `${prefix}${n}`, categoryId: 1 + (n % 10) }),
        signal: AbortSignal.timeout(15_000),
      });
      if (response.status !== 201) throw new Error(`create ${n} answered ${response.status}: ${await response.text()}`);
      pets.push((await response.json()) as Pet);
    }
  };
  await Promise.all(Array.from({ length: 16 }, client));
  return pets;
}

/**
 * The same fields with the same values. Not `isDeepStrictEqual`: under Jest, a body parsed by `fetch` and one parsed
 * by the receiver have prototypes of different realms.
 */
function samePet(a: Pet | undefined, b: Pet): boolean {
  return a !== undefined && Object.keys(a).length === Object.keys(b).length && (Object.keys(b) as Array<keyof Pet>).every((key) => a[key] === b[key]);
}

/** The deliveries the receiver took in (answered 2xx, correctly signed), in arrival order, with the pet each carried. */
const deliveries = (receiver: WebhookReceiver) => receiver.delivered().map(({ webhookId, event }) => ({ webhookId, pet: (event as { data: Pet }).data }));

/** The pets without a delivery carrying them as acknowledged. */
function missing(receiver: WebhookReceiver, pets: Pet[]): Pet[] {
  const delivered = new Map(deliveries(receiver).map(({ pet }) => [pet.id, pet]));
  return pets.filter((pet) => !samePet(delivered.get(pet.id), pet));
}

/** Until every pet has a delivery carrying it as acknowledged; false if `timeoutMs` ran out first. */
const waitForPets = (receiver: WebhookReceiver, pets: Pet[], timeoutMs: number) => receiver.waitFor(() => missing(receiver, pets).length === 0, timeoutMs);

/** Deliveries of anything but one of `pets` exactly as acknowledged: none may be. */
function strangers(receiver: WebhookReceiver, pets: Pet[]) {
  const acknowledged = new Map(pets.map((pet) => [pet.id, pet]));
  return deliveries(receiver).filter(({ pet }) => !samePet(acknowledged.get(pet.id), pet));
}

/**
 * Until `instance` has an attempt in flight that the holding receiver has taken and not answered: the moment to kill
 * it. Every attempt stays in flight until the receiver's release (or the attempt's 10 s deadline), so a kill then cuts it.
 */
async function untilInFlightFrom(receiver: WebhookReceiver, instance: NodeProcess): Promise<number> {
  const receiverPort = Number(new URL(receiver.url).port);
  const fromInstance = () => {
    const ports = new Set(localPortsTo(instance.pid, receiverPort));
    return receiver.openFrom().filter((port) => ports.has(port)).length;
  };
  for (const deadline = Date.now() + 60_000; fromInstance() === 0 && Date.now() < deadline; ) await sleep(20);
  return fromInstance();
}

const instances: NodeProcess[] = [];
const stopInstances = () => Promise.all(instances.splice(0).map((instance) => stopNode(instance)));

/** A database of its own on the PostgreSQL server, dropped once the instances have stopped. */
async function withPostgresDatabase(work: (databaseUrl: string) => Promise<void>): Promise<void> {
  const name = `petstore_webhooks_${process.pid}_${Date.now()}`;
  await admin((client) => client.query(`CREATE DATABASE ${name}`));
  try {
    await work(Object.assign(new URL(POSTGRES_ADMIN_URL), { pathname: `/${name}` }).href);
  } finally {
    await stopInstances();
    await admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  }
}

/**
 * Once `killed` has deliveries in flight at the holding receiver, kills it, releases the receiver and restarts it
 * (`restart`), then expects every pet's event, none but theirs, every signature good, and the kill to have cut some
 * attempts, which came again after their lease.
 */
async function killMidDeliveryAndCheck(
  receiver: WebhookReceiver,
  pets: Pet[],
  what: string,
  killed: NodeProcess,
  restart: () => Promise<void>,
): Promise<void> {
  const inFlight = await untilInFlightFrom(receiver, killed);
  const takenIn = receiver.counts().delivered;
  expect(await killNode(killed)).toBe(true);
  receiver.release();
  await restart();
  await waitForPets(receiver, pets, AFTER_A_KILL_MS);

  const { badSignatures, cut, duplicates } = receiver.counts();
  expect(missing(receiver, pets)).toEqual([]);
  expect(strangers(receiver, pets)).toEqual([]);
  expect(badSignatures).toBe(0);
  expect({ inFlight: inFlight > 0, backlog: takenIn < pets.length, cut: cut > 0 }).toEqual({ inFlight: true, backlog: true, cut: true });
  process.stdout.write(
    `webhooks, ${what}: ${pets.length} pets, ${takenIn} delivered before the kill with ${inFlight} in flight from it, ` +
      `${cut} cut by it, ${duplicates} delivered again\n`,
  );
}

describe('webhook delivery by separate service processes', () => {
  let receiver: WebhookReceiver | undefined;

  afterEach(async () => {
    await receiver?.close();
    receiver = undefined;
  });

  /** Two instances on one database, 400 creates spread over them: every event delivered once, by one of them. */
  const deliverOnceFromTwo = async (databaseUrl: string, prefix: string) => {
    receiver = await startWebhookReceiver({ verify: true });
    // One after the other: the first runs the migrations that make the endpoints table.
    instances.push(await startInstance(databaseUrl));
    instances.push(await startInstance(databaseUrl));
    await registerWebhookEndpoint(databaseUrl, receiver.url, receiver.secret);

    const pets = await createPets(instances.map(({ origin }) => origin), 400, prefix);
    await waitForPets(receiver, pets, 30_000);
    // A second delivery of a message, were there one, would come within the next polls.
    await sleep(1_000);

    const { badSignatures, duplicates, delivered } = receiver.counts();
    expect(missing(receiver, pets)).toEqual([]);
    expect(strangers(receiver, pets)).toEqual([]);
    expect({ badSignatures, duplicates, deliveries: delivered }).toEqual({
      badSignatures: 0,
      duplicates: 0,
      deliveries: pets.length,
    });
    // One message per pet: as many webhook-ids as pets.
    expect(new Set(receiver.delivered().map(({ webhookId }) => webhookId)).size).toBe(pets.length);
    await Promise.all(instances.map(async (instance) => expect(await stopNode(instance)).toEqual({ code: 0, signal: null })));
  };

  it('delivers every pet.created once, each webhook-id exactly once, from two instances on one PostgreSQL database', async () => {
    await withPostgresDatabase((databaseUrl) => deliverOnceFromTwo(databaseUrl, 'two-instances-'));
  });

  it('delivers every pet.created once, each webhook-id exactly once, from two processes sharing one SQLite file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'petstore-webhooks-e2e-'));
    try {
      await deliverOnceFromTwo(`sqlite:${join(dir, 'petstore.sqlite')}`, 'two-processes-');
    } finally {
      await stopInstances();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('delivers every pet.created when one of two PostgreSQL instances is SIGKILLed with deliveries in flight and restarted', async () => {
    await withPostgresDatabase(async (databaseUrl) => {
      receiver = await startWebhookReceiver({ verify: true, delayMs: SLOW_MS, hold: true });
      instances.push(await startInstance(databaseUrl));
      instances.push(await startInstance(databaseUrl));
      await registerWebhookEndpoint(databaseUrl, receiver.url, receiver.secret);

      // The receiver holds what it is sent: a backlog, and both instances with attempts in flight.
      const pets = await createPets(instances.map(({ origin }) => origin), 1_000, 'killed-instance-');
      await killMidDeliveryAndCheck(receiver, pets, 'two PostgreSQL instances, one SIGKILLed', instances[0], async () => {
        instances[0] = await startInstance(databaseUrl);
      });
    });
  });

  it('delivers every pet.created when the one SQLite instance is SIGKILLed mid-delivery and restarted', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'petstore-webhooks-e2e-'));
    try {
      const file = join(dir, 'petstore.sqlite');
      receiver = await startWebhookReceiver({ verify: true, delayMs: SLOW_MS, hold: true });
      instances.push(await startInstance(`sqlite:${file}`));
      await registerWebhookEndpoint(`sqlite:${file}`, receiver.url, receiver.secret);

      const pets = await createPets([instances[0].origin], 500, 'killed-sqlite-');
      await killMidDeliveryAndCheck(receiver, pets, 'one SQLite instance SIGKILLed', instances[0], async () => {
        instances[0] = await startInstance(`sqlite:${file}`);
      });
    } finally {
      await stopInstances();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
