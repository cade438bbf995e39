import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type NodeProcess, spawnService, waitUntilReady } from '@petstore/testing';
import { TEST_KEY } from './support/test-key';

// docs/operations.md, "Data": any number of processes may share one SQLite file (an overlapping restart, cluster mode) and every
// guarantee holds across them. Two processes serve one file, and each Idempotency-Key is sent to both at once, so
// only the database can decide which create comes first; one of them is then killed with SIGKILL under that load.

const KEYS = 50;
const KEYLESS = 10;
const ROUNDS = 6;
const KILL_AFTER = 20;

/** One answer to a create; status 0 when none came (its process was killed). */
interface Answer {
  origin: string;
  status: number;
  id?: number;
  code?: string;
}

/** One pet asked for, with every answer it got: a keyed create goes to both processes, and may be retried. */
interface Create {
  name: string;
  key?: string;
  answers: Answer[];
}

interface StoredPet {
  id: number;
  name: string;
}

const authorization = `Bearer ${TEST_KEY}`;
let runs = 0;

async function startService(databaseUrl: string): Promise<NodeProcess> {
  const service = await spawnService({ env: { API_KEYS: TEST_KEY, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' } });
  await waitUntilReady(service);
  return service;
}

async function send(origin: string, create: Create): Promise<Answer> {
  let answer: Answer;
  try {
    const response = await fetch(`${origin}/v1/pets`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json', ...(create.key ? { 'idempotency-key': create.key } : {}) },
      body: JSON.stringify({ name: create.name, categoryId: 1 }),
      signal: AbortSignal.timeout(15_000),
    });
    const body = (await response.json()) as { id?: number; code?: string };
    answer = { origin, status: response.status, id: body.id, code: body.code };
  } catch {
    answer = { origin, status: 0 };
  }
  create.answers.push(answer);
  return answer;
}

/**
 * Each keyed create goes to every process at once, all together or one key every `spacingMs`; the keyless ones go to
 * one process each.
 */
function sendRound(services: NodeProcess[], keys: number, spacingMs = 0, onAnswer: (origin: string, answer: Answer) => void = () => undefined) {
  runs += 1;
  const keyed = Array.from({ length: keys }, (_, i): Create => ({ name: `run ${runs} key ${i}`, key: `run-${runs}-key-${i}`, answers: [] }));
  const keyless = Array.from({ length: KEYLESS }, (_, i): Create => ({ name: `run ${runs} plain ${i}`, answers: [] }));
  const sent = [
    ...keyed.map(async (create, i) => {
      if (spacingMs > 0) await sleep(i * spacingMs);
      await Promise.all(services.map(({ origin }) => send(origin, create).then((answer) => onAnswer(origin, answer))));
    }),
    ...keyless.map((create, i) => {
      const { origin } = services[i % services.length];
      return send(origin, create).then((answer) => onAnswer(origin, answer));
    }),
  ];
  return { creates: [...keyed, ...keyless], done: Promise.all(sent) };
}

/**
 * Answers that break the rules: a keyed create gets 201 with one id, or 409 while its first create runs; only a
 * killed process may leave one unanswered.
 */
function answerProblems(creates: Create[], killed?: NodeProcess): string[] {
  return creates.flatMap((create) => {
    const problems = create.answers
      .filter(({ origin, status, code }) => !(status === 201 || (status === 409 && create.key && code === 'idempotency_key_in_use') || (status === 0 && origin === killed?.origin)))
      .map(({ origin, ...answer }) => `${create.name}: ${JSON.stringify(answer)} from ${origin}`);
    const ids = new Set(acknowledgedIds(create));
    if (ids.size > 1) problems.push(`${create.name}: answered with ids ${[...ids].join(', ')}`);
    return problems;
  });
}

const acknowledgedIds = (create: Create) => create.answers.filter(({ status }) => status === 201).map(({ id }) => id as number);

/** Every pet, page by page, following `Link: rel="next"` (built from PUBLIC_BASE_URL, so only its path is used). */
async function listAll(origin: string): Promise<StoredPet[]> {
  const pets: StoredPet[] = [];
  let path: string | undefined = '/v1/pets?limit=100';
  while (path) {
    const response = await fetch(`${origin}${path}`, { headers: { authorization } });
    expect(response.status).toBe(200);
    pets.push(...((await response.json()) as StoredPet[]));
    const next = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get('link') ?? '');
    path = next ? `${new URL(next[1]).pathname}${new URL(next[1]).search}` : undefined;
  }
  return pets;
}

/**
 * What the list shows against what was answered: ids unique and increasing, one pet per Idempotency-Key under the
 * id its 201s gave, and every acknowledged keyless pet once.
 */
function storedProblems(creates: Create[], pets: StoredPet[]): string[] {
  const problems: string[] = [];
  pets.forEach((pet, i) => i > 0 && pet.id <= pets[i - 1].id && problems.push(`id ${pet.id} listed after ${pets[i - 1].id}`));
  const byName = new Map<string, StoredPet[]>();
  for (const pet of pets) byName.set(pet.name, [...(byName.get(pet.name) ?? []), pet]);
  for (const create of creates) {
    const stored = byName.get(create.name) ?? [];
    const [acknowledged] = acknowledgedIds(create);
    if (create.key && stored.length !== 1) problems.push(`${create.name}: stored ${stored.length} times (ids ${stored.map((p) => p.id).join(', ')})`);
    else if (!create.key && stored.length > 1) problems.push(`${create.name}: stored ${stored.length} times`);
    if (acknowledged !== undefined && !stored.some((pet) => pet.id === acknowledged)) problems.push(`${create.name}: acknowledged as ${acknowledged}, not stored so`);
  }
  return problems;
}

describe('two processes on one SQLite file', () => {
  let dir: string;
  let services: NodeProcess[] = [];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'petstore-shared-file-'));
  });

  afterEach(async () => {
    for (const service of services) {
      if (service.child.exitCode === null && service.child.signalCode === null) service.child.kill('SIGKILL');
      await service.exited;
    }
    services = [];
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates one pet per Idempotency-Key sent to both at once, under unique increasing ids, across a SIGKILL of one', async () => {
    const databaseUrl = `sqlite:${join(dir, 'petstore.sqlite')}`;
    // Started together on a file that does not exist yet: both must come up, with the schema migrated once.
    services = await Promise.all([startService(databaseUrl), startService(databaseUrl)]);
    const creates: Create[] = [];

    let highestId = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const { creates: sent, done } = sendRound(services, KEYS);
      await done;
      creates.push(...sent);
      expect(answerProblems(sent)).toEqual([]);
      // Each round began once the last was answered: its pets come after every earlier one, whichever process made them.
      const ids = sent.flatMap(acknowledgedIds);
      expect(Math.min(...ids)).toBeGreaterThan(highestId);
      highestId = Math.max(...ids);
    }
    expect(storedProblems(creates, await listAll(services[1].origin))).toEqual([]);

    // Keys sent one after another, and SIGKILL to one process once it has acknowledged some: creates answered,
    // creates committed but not answered, creates not yet committed and creates not yet sent, all at once.
    const [victim, survivor] = services;
    let acknowledgedByVictim = 0;
    const { creates: underKill, done } = sendRound(services, KEYS * 2, 2, (origin, answer) => {
      if (origin === victim.origin && answer.status === 201 && (acknowledgedByVictim += 1) === KILL_AFTER) victim.child.kill('SIGKILL');
    });
    await done;
    expect(victim.child.killed).toBe(true);
    expect(await victim.exited).toMatchObject({ signal: 'SIGKILL' });
    creates.push(...underKill);
    expect(answerProblems(underKill, victim)).toEqual([]);

    const restarted = await startService(databaseUrl);
    services.push(restarted);
    // Clients retry what went unanswered, with the same key and body: each key gets the pet it already has, if any.
    const retried = underKill.filter((create) => create.key);
    await Promise.all(retried.flatMap((create) => [restarted, survivor].map(({ origin }) => send(origin, create))));
    expect(answerProblems(retried, victim)).toEqual([]);
    expect(retried.filter((create) => acknowledgedIds(create).length === 0).map((create) => create.name)).toEqual([]);

    const unanswered = underKill.flatMap((create) => create.answers).filter(({ status }) => status === 0).length;
    console.log(`${creates.length} pets asked for; ${unanswered} creates sent to the killed process went unanswered`);
    for (const { origin } of [restarted, survivor]) expect(storedProblems(creates, await listAll(origin))).toEqual([]);
  });
});
