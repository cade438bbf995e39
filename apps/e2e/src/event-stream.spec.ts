import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { PetstoreClient } from '@petstore/client';
import { createPostgresDatabase, DEFAULT_POSTGRES_URL, killNode, percentile, stopNode } from '@petstore/testing';
import { withInstances } from './support/cluster';
import { clientSubscriber, deduplicated, lastEventIdSubscriber, type Subscriber } from './support/event-subscribers';
import { haproxyInstalled } from './support/haproxy';
import { TEST_KEY } from './support/test-key';

// behaviour.md, "Event stream", as operators deploy it: two instances behind HAProxy on one database, pets created on
// both at once (so that transactions commit in another order than they began), subscribers through HAProxy, one
// instance killed with SIGKILL, then both replaced in turn. Every subscriber must see every stored pet once, in
// position order, and nothing else.

const CREATORS_PER_INSTANCE = 2;

/** Creates on each instance directly, as fast as each loop is answered, until stopped; the names it sent, with when. */
function startCreating(origins: () => string[], prefix: string) {
  const sentAt = new Map<string, number>();
  let running = true;
  let acknowledged = 0;
  const loop = async (instance: number) => {
    while (running) {
      const name = `${prefix}${randomUUID().slice(0, 8)}`;
      sentAt.set(name, performance.now());
      try {
        const response = await fetch(`${origins()[instance]}/v1/pets`, {
          method: 'POST',
          headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name, categoryId: 1 }),
          signal: AbortSignal.timeout(15_000),
        });
        if (response.status === 201) acknowledged += 1;
        else await sleep(50);
      } catch {
        // Its instance is down (killed, or being replaced): the database says afterwards whether the pet was stored.
        await sleep(50);
      }
    }
  };
  const loops = [0, 1].flatMap((instance) => Array.from({ length: CREATORS_PER_INSTANCE }, () => loop(instance)));
  return {
    sentAt,
    acknowledged: () => acknowledged,
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}

async function until(condition: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(20);
  }
}

/** Every pet whose name starts with `prefix`, from the service: the truth the subscribers are held to. */
async function storedPets(baseUrl: string, prefix: string): Promise<Map<number, string>> {
  const client = new PetstoreClient({ baseUrl, apiKey: TEST_KEY, logger: { warn: () => undefined } });
  const pets = new Map<number, string>();
  for await (const pet of client.iteratePets({ name: prefix, pageSize: 100 })) pets.set(pet.id, pet.name);
  return pets;
}

const databases: Array<[string, (dir: string) => Promise<{ url: string; drop: () => Promise<void> }>]> = [
  ['SQLite (one file shared by both)', async (dir) => ({ url: `sqlite:${join(dir, 'petstore.sqlite')}`, drop: async () => undefined })],
  ['PostgreSQL', async () => createPostgresDatabase(DEFAULT_POSTGRES_URL, 'petstore_events')],
];

describe('the event stream behind HAProxy', () => {
  it.each(databases)('gives every subscriber every pet once and in order across a SIGKILL and a rolling restart, on %s', async (label, makeDatabase) => {
    if (!haproxyInstalled()) {
      if (process.env.CI === 'true') throw new Error('haproxy is not installed: .ci/run installs it');
      return;
    }
    const dir = mkdtempSync(join(tmpdir(), 'petstore-events-'));
    const database = await makeDatabase(dir);
    try {
      await withInstances({ count: 2, env: { DATABASE_URL: database.url, LOG_LEVEL: 'warn' } }, async ({ haproxy, instances, restart }) => {
        const prefix = `ev${Date.now().toString(36)}-`;
        const subscribers: Subscriber[] = [];
        // Opened one after another, HAProxy's round robin puts every other one on each instance: in this order, each
        // instance gets both kinds.
        for (const [index, kind] of ['client', 'Last-Event-ID', 'Last-Event-ID', 'client', 'client', 'Last-Event-ID'].entries()) {
          subscribers.push(
            kind === 'client'
              ? clientSubscriber(`client ${index}`, `${haproxy.origin}/v1`, TEST_KEY)
              : lastEventIdSubscriber(`Last-Event-ID ${index}`, `${haproxy.origin}/v1/events`, TEST_KEY),
          );
          await until(() => subscribers.every(({ opens }) => opens.length === 1), 'the subscribers open');
        }
        const creating = startCreating(() => instances.map(({ origin }) => origin), prefix);
        try {
          await until(() => creating.acknowledged() >= 100, '100 creates');
          const steadyUntil = performance.now();

          // SIGKILL: no stream of the victim ends cleanly; its subscribers reconnect through HAProxy to the other.
          const opensBeforeKill = subscribers.map(({ opens }) => opens.length);
          const killedAt = performance.now();
          await killNode(instances[0]);
          const moved = () => subscribers.filter(({ opens }, index) => opens.length > opensBeforeKill[index]);
          await until(() => moved().length === subscribers.length / 2, 'the victim\'s subscribers open again');
          const resumeMs = moved().map(({ opens }) => opens[opens.length - 1] - killedAt);
          await restart(0);
          const atRestart = creating.acknowledged();
          await until(() => creating.acknowledged() >= atRestart + 100, '100 creates after the restart');

          // A rolling restart: each instance stopped with SIGTERM (its streams end cleanly), started again.
          for (const index of [1, 0]) {
            expect(await stopNode(instances[index])).toEqual({ code: 0, signal: null });
            await restart(index);
            const atRoll = creating.acknowledged();
            await until(() => creating.acknowledged() >= atRoll + 50, '50 creates after a replacement');
          }
          await creating.stop();

          const stored = await storedPets(`${haproxy.origin}/v1`, prefix);
          const wanted = [...stored.keys()];
          await until(() => subscribers.every(({ received }) => wanted.every((id) => received.some(({ petId }) => petId === id))), 'every subscriber has every stored pet', 90_000);
          await sleep(500);
          for (const subscriber of subscribers) await subscriber.stop();

          for (const { label: who, received } of subscribers) {
            const kept = deduplicated(received).filter(({ name }) => name.startsWith(prefix));
            const positions = kept.map(({ position }) => position);
            expect({ who, inOrder: positions.every((position, i) => i === 0 || position > positions[i - 1]) }).toEqual({ who, inOrder: true });
            // Each stored pet once, and no event of a pet that was not stored (a create rolled back, say).
            expect({ who, pets: kept.map(({ petId }) => petId).sort((a, b) => a - b) }).toEqual({ who, pets: [...wanted].sort((a, b) => a - b) });
          }
          const repeats = subscribers.filter(({ label: who }) => who.startsWith('Last-Event-ID')).map(({ received }) => received.length - deduplicated(received).length);
          const delays = subscribers.flatMap(({ received }) =>
            deduplicated(received)
              .filter(({ name }) => (creating.sentAt.get(name) ?? Infinity) < steadyUntil)
              .map(({ name, at }) => at - (creating.sentAt.get(name) as number)),
          );
          process.stdout.write(
            `event stream (${label}, 2 instances behind HAProxy, ${subscribers.length} subscribers): ${stored.size} pets created on both at once, ` +
              `each seen once and in order by every subscriber; create (request sent) to event, steady: p50 ${percentile(delays, 50).toFixed(0)} ms, ` +
              `p99 ${percentile(delays, 99).toFixed(0)} ms; after SIGKILL the victim's ${resumeMs.length} subscribers streamed again within ` +
              `${resumeMs.map((ms) => ms.toFixed(0)).join(', ')} ms; events sent again to Last-Event-ID subscribers: ${repeats.join(', ')}\n`,
          );
        } finally {
          await creating.stop();
          for (const subscriber of subscribers) await subscriber.stop();
        }
      });
    } finally {
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
