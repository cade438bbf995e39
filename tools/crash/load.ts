import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { MAX_ID, type NewPet, PET_STATUSES, type Pet } from '@petstore/contract';
import { between } from './random';
import { API_KEY } from './service';

const REQUEST_TIMEOUT_MS = 15_000;
/** How long a retry keeps trying while the service answers 409 `idempotency_key_in_use`. */
const IN_USE_PATIENCE_MS = 10_000;

/** A name no other request uses, and the Idempotency-Key it is sent and retried with. */
export interface Create {
  key: string;
  body: NewPet;
}

export interface Acknowledged {
  create: Create;
  pet: Pet;
}

export interface LoadOutcome {
  acknowledged: Acknowledged[];
  /** Sent but never answered: each may or may not be stored, and none counts as lost. */
  unacknowledged: Create[];
  /** Answers other than 201, and requests that failed while the service was meant to be up. */
  errors: string[];
}

export interface Load {
  /** Those in flight are left to finish or fail. */
  stop(): void;
  done: Promise<LoadOutcome>;
}

/** `concurrency` clients, each sending creates one after the other until stopped. */
export function driveCreates(baseUrl: string, cycle: number, concurrency: number, random: () => number): Load {
  const outcome: LoadOutcome = { acknowledged: [], unacknowledged: [], errors: [] };
  let stopped = false;
  let sent = 0;
  const client = async () => {
    while (!stopped) {
      const create = newCreate(`crash-${cycle}-${sent++}`, random);
      try {
        const answer = await postPet(baseUrl, create);
        if (answer.status === 201) outcome.acknowledged.push({ create, pet: answer.body as Pet });
        else outcome.errors.push(`${create.body.name}: ${answer.status} ${JSON.stringify(answer.body)}`);
      } catch (error) {
        outcome.unacknowledged.push(create);
        if (!stopped) {
          // Before the kill nothing should fail: the service died or hung by itself.
          outcome.errors.push(`${create.body.name} failed before the kill: ${describe(error)}`);
          stopped = true;
        }
      }
    }
  };
  const done = Promise.all(Array.from({ length: concurrency }, client)).then(() => outcome);
  return { stop: () => (stopped = true), done };
}

/**
 * Sends each create again with its Idempotency-Key and body: the answer should be the original 201 when the first
 * attempt was stored, a new pet when it was not, and never a second pet.
 */
export async function retryCreates(baseUrl: string, creates: Create[]): Promise<Omit<LoadOutcome, 'unacknowledged'>> {
  const outcome: Omit<LoadOutcome, 'unacknowledged'> = { acknowledged: [], errors: [] };
  await Promise.all(
    creates.map(async (create) => {
      const deadline = Date.now() + IN_USE_PATIENCE_MS;
      try {
        for (;;) {
          const answer = await postPet(baseUrl, create);
          if (answer.status === 201) {
            outcome.acknowledged.push({ create, pet: answer.body as Pet });
            return;
          }
          if (answer.status !== 409 || Date.now() > deadline) {
            outcome.errors.push(`retry of ${create.body.name}: ${answer.status} ${JSON.stringify(answer.body)}`);
            return;
          }
          await sleep(250);
        }
      } catch (error) {
        outcome.errors.push(`retry of ${create.body.name} failed: ${describe(error)}`);
      }
    }),
  );
  return outcome;
}

async function postPet(baseUrl: string, create: Create): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${baseUrl}/v1/pets`, {
    method: 'POST',
    headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json', 'idempotency-key': create.key },
    body: JSON.stringify(create.body),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  // A body cut short by the kill throws here: that answer never arrived.
  return { status: response.status, body: JSON.parse(await response.text()) };
}

/** Varied bodies: status sometimes omitted, and now and then the largest categoryId allowed. */
function newCreate(name: string, random: () => number): Create {
  const categoryId = random() < 0.05 ? MAX_ID : between(random, 1, 1_000);
  const status = between(random, 0, PET_STATUSES.length);
  const body: NewPet = status === PET_STATUSES.length ? { name, categoryId } : { name, categoryId, status: PET_STATUSES[status] };
  return { key: randomUUID(), body };
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${(error.cause as NodeJS.ErrnoException).code ?? error.cause.message})` : '';
  return `${error.message}${cause}`;
}
