import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { PetstoreClient } from '@petstore/client';

/** What a load run saw. */
export interface LoadReport {
  sent: number;
  failures: string[];
  /** Pet name → the id its 201 gave. */
  acknowledged: Map<string, number>;
}

export interface RunningLoad {
  /** Requests (or client operations) sent so far. */
  sent: () => number;
  /** Lets each loop finish its operation, then hands back the report. */
  stop: () => Promise<LoadReport>;
}

export interface LoadOptions {
  origin: string;
  key: string;
  /** Requests per second, spread over `workers` loops. */
  rate: number;
  workers?: number;
  /** Pet names start with this, so that the check afterwards finds them. */
  prefix: string;
}

/** Steady traffic until `stop()`; every answer but the expected status counts as a failure, as does any error. */
export function startLoad({ origin, key, rate, workers = 10, prefix }: LoadOptions): RunningLoad {
  const report: LoadReport = { sent: 0, failures: [], acknowledged: new Map() };
  const ids: number[] = [];
  const headers = { authorization: `Bearer ${key}` };

  const send = async (what: string, url: string, init: RequestInit, expected: number): Promise<Response | undefined> => {
    report.sent += 1;
    try {
      const response = await fetch(url, { ...init, headers: { ...headers, ...init.headers }, signal: AbortSignal.timeout(10_000) });
      if (response.status !== expected) {
        report.failures.push(`${what}: ${response.status} ${await response.text()}`);
        return undefined;
      }
      return response;
    } catch (error) {
      report.failures.push(`${what}: ${(error as Error).message} ${((error as Error).cause as Error | undefined)?.message ?? ''}`);
      return undefined;
    }
  };

  const create = async () => {
    const name = `${prefix}${randomUUID()}`;
    const response = await send(
      'create',
      `${origin}/v1/pets`,
      { method: 'POST', headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() }, body: JSON.stringify({ name, categoryId: 1 }) },
      201,
    );
    if (!response) return;
    const { id } = (await response.json()) as { id: number };
    report.acknowledged.set(name, id);
    ids.push(id);
  };
  const read = async () => {
    if (ids.length === 0) return create();
    const response = await send('read', `${origin}/v1/pets/${ids[Math.floor(Math.random() * ids.length)]}`, {}, 200);
    await response?.arrayBuffer();
  };
  const list = async () => {
    let url: string | undefined = `${origin}/v1/pets?limit=20`;
    for (let page = 0; url && page < 3; page += 1) {
      const response = await send('list', url, {}, 200);
      if (!response) return;
      await response.arrayBuffer();
      url = /<([^>]+)>; rel="next"/.exec(response.headers.get('link') ?? '')?.[1];
    }
  };

  return mixedTraffic({ rate, workers, create, read, list }, report);
}

/**
 * The same traffic as {@link startLoad}, through `@petstore/client`: its retries carry an operation across a failed
 * attempt, so an operation fails only if the client gives up.
 */
export function startClientLoad(client: PetstoreClient, { rate, workers = 10, prefix }: Omit<LoadOptions, 'origin' | 'key'>): RunningLoad {
  const report: LoadReport = { sent: 0, failures: [], acknowledged: new Map() };
  const ids: number[] = [];
  const operation = async (what: string, run: () => Promise<unknown>) => {
    report.sent += 1;
    try {
      await run();
    } catch (error) {
      report.failures.push(`${what}: ${(error as Error).name} ${(error as Error).message}`);
    }
  };
  const create = () =>
    operation('createPet', async () => {
      const name = `${prefix}${randomUUID()}`;
      const pet = await client.createPet({ name, categoryId: 1 });
      report.acknowledged.set(name, pet.id);
      ids.push(pet.id);
    });
  const read = () => (ids.length === 0 ? create() : operation('getPet', () => client.getPet(ids[Math.floor(Math.random() * ids.length)])));
  const list = () =>
    operation('iteratePets', async () => {
      // A short walk that follows the cursor, not a full scan.
      let seen = 0;
      for await (const _pet of client.iteratePets({ pageSize: 20 })) if (++seen >= 50) break;
    });
  return mixedTraffic({ rate, workers, create, read, list }, report);
}

/** `workers` loops, each sending one operation at a time at its share of `rate`. */
function mixedTraffic(
  { rate, workers, create, read, list }: { rate: number; workers: number; create: () => Promise<void>; read: () => Promise<void>; list: () => Promise<void> },
  report: LoadReport,
): RunningLoad {
  let running = true;
  const loop = async () => {
    const interval = (1000 * workers) / rate;
    while (running) {
      const started = Date.now();
      const pick = Math.random();
      await (pick < 0.35 ? create() : pick < 0.75 ? read() : list());
      const wait = interval - (Date.now() - started);
      if (wait > 0) await sleep(wait);
    }
  };
  const loops = Array.from({ length: workers }, loop);
  return {
    sent: () => report.sent,
    stop: async () => {
      running = false;
      await Promise.all(loops);
      return report;
    },
  };
}

/** One answer a {@link startCarefulLoad} received (status 0: no answer, the error in `body`). */
export interface Answer {
  what: 'create' | 'list';
  status: number;
  at: number;
  body: string;
  retryAfter: string | null;
}

export interface CarefulLoad {
  /** In the order received. */
  answers: Answer[];
  /** Pet name → the id its 201 gave. */
  acknowledged: Map<string, number>;
  /** Lets each loop finish its operation. */
  stop(): Promise<void>;
}

/**
 * A careful client through a fault: a create is retried with its Idempotency-Key after Retry-After. Every answer is
 * kept, to be judged afterwards (see {@link unexpectedAnswers}).
 */
export function startCarefulLoad({ origin, key, prefix }: Omit<LoadOptions, 'rate' | 'workers'>): CarefulLoad {
  const answers: Answer[] = [];
  const acknowledged = new Map<string, number>();
  let running = true;
  const ask = async (what: Answer['what'], url: string, init: RequestInit = {}): Promise<Answer> => {
    let answer: Answer;
    try {
      const response = await fetch(url, { ...init, headers: { authorization: `Bearer ${key}`, ...init.headers }, signal: AbortSignal.timeout(60_000) });
      answer = { what, status: response.status, at: Date.now(), body: await response.text(), retryAfter: response.headers.get('retry-after') };
    } catch (error) {
      answer = { what, status: 0, at: Date.now(), body: String((error as Error).cause ?? error), retryAfter: null };
    }
    answers.push(answer);
    return answer;
  };
  const creating = (async () => {
    while (running) {
      const name = `${prefix}${randomUUID()}`;
      const init = { method: 'POST', headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() }, body: JSON.stringify({ name, categoryId: 1 }) };
      for (let attempt = 0; attempt < 100; attempt += 1) {
        const answer = await ask('create', `${origin}/v1/pets`, init);
        if (answer.status === 201) {
          acknowledged.set(name, (JSON.parse(answer.body) as { id: number }).id);
          break;
        }
        if (answer.status !== 503 && answer.status !== 409) break;
        await sleep(Number(answer.retryAfter ?? 1) * 1000);
      }
      await sleep(20);
    }
  })();
  const listing = (async () => {
    while (running) {
      await ask('list', `${origin}/v1/pets?limit=20`);
      await sleep(50);
    }
  })();
  return {
    answers,
    acknowledged,
    async stop() {
      running = false;
      await Promise.all([creating, listing]);
    },
  };
}

/**
 * What a fault must never produce: answers neither 2xx nor a 503 with Retry-After (or its kin, the 409 while a retried
 * create still runs).
 */
export const unexpectedAnswers = (answers: Answer[]): Answer[] =>
  answers.filter(({ status, retryAfter, body }) => {
    if (status >= 200 && status < 300) return false;
    if ((status === 503 || status === 409) && retryAfter !== null && /"code":"(service_unavailable|idempotency_key_in_use)"/.test(body)) return false;
    return true;
  });
