import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import sqlite3 from 'sqlite3';
import { type NodeProcess, spawnService, waitUntilLive } from '@petstore/testing';
import { TEST_KEY } from './support/test-key';

// SIGTERM in the middle of steady keep-alive traffic (docs/operations.md, "Stopping"): readiness turns false, the listener closes,
// every request the service read is answered, kept-alive responses say `Connection: close`, the process exits 0
// within 10 s, and the database is closed cleanly. A connection idle when the signal came stays open while traffic
// on it goes on, so not even a request already on its way is reset: every failure counts.

const LOOPS = 32;
const WARM_UP_MS = 1_500;
const THINK_MS = 20;
const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? `postgres://${userInfo().username}@127.0.0.1:5432/test`;

type Operation = 'listPets' | 'getPet' | 'createPet';

interface Outcome {
  operation: Operation;
  requestId: string;
  /** When the client began the request (performance.now()). */
  startedAt: number;
  /** Whether the request went out on a socket that had carried an earlier request. */
  reused: boolean;
  /** Whether the request was handed to the operating system in full. */
  sent: boolean;
  status?: number;
  /** When the response head arrived (performance.now()). */
  answeredAt?: number;
  connection?: string;
  error?: string;
}

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

interface Database {
  url: string;
  /** The number of pets stored, read after the service stopped. */
  countPets(): Promise<number>;
  /** Throws unless the service left the database closed cleanly. */
  assertClosedCleanly(): Promise<void>;
  drop(): Promise<void>;
}

function sqliteDatabase(): Database {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-shutdown-'));
  const file = join(dir, 'petstore.sqlite');
  const query = <T>(sql: string) =>
    new Promise<T[]>((resolve, reject) => {
      const db = new sqlite3.Database(file, sqlite3.OPEN_READONLY, (openError) => {
        if (openError) return reject(openError);
        db.all<T>(sql, (error, rows) => db.close(() => (error ? reject(error) : resolve(rows))));
      });
    });
  return {
    url: `sqlite:${file}`,
    countPets: async () => (await query<{ count: number }>('SELECT count(*) AS count FROM pets'))[0].count,
    assertClosedCleanly: async () => {
      // The last connection to close checkpoints the WAL into the database file and removes it.
      const wal = `${file}-wal`;
      expect(existsSync(wal) ? statSync(wal).size : 0).toBe(0);
      expect(await query('PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
    },
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

async function postgresDatabase(): Promise<Database> {
  const name = `petstore_shutdown_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = async <T>(sql: string, values: unknown[] = []): Promise<T[]> => {
    const client = new Client({ connectionString: ADMIN_URL });
    await client.connect();
    try {
      return (await client.query(sql, values)).rows;
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    countPets: async () => {
      const client = new Client({ connectionString: url.href });
      await client.connect();
      try {
        return Number((await client.query('SELECT count(*) AS count FROM pets')).rows[0].count);
      } finally {
        await client.end();
      }
    },
    assertClosedCleanly: async () => {
      // A pool ended by the service says goodbye before the process exits; one left open would linger here.
      const sessions = await admin<{ count: string }>('SELECT count(*) AS count FROM pg_stat_activity WHERE datname = $1', [name]);
      expect(Number(sessions[0].count)).toBe(0);
    },
    drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).then(() => undefined),
  };
}

/** One HTTP request through the keep-alive agent; never rejects, so that every outcome is counted. */
function send(agent: Agent, origin: string, operation: Operation, requestId: string, petIds: number[]): Promise<Outcome> {
  const id = petIds[Math.floor(Math.random() * petIds.length)];
  const [method, path, body] =
    operation === 'listPets'
      ? ['GET', '/v1/pets?limit=20']
      : operation === 'getPet'
        ? ['GET', `/v1/pets/${id}`]
        : ['POST', '/v1/pets', JSON.stringify({ name: `Load ${requestId}`, categoryId: 1 })];
  return new Promise((resolve) => {
    const outcome: Outcome = { operation, requestId, startedAt: performance.now(), reused: false, sent: false };
    const req = request(`${origin}${path}`, {
      method,
      agent,
      headers: {
        authorization: `Bearer ${TEST_KEY}`,
        'x-request-id': requestId,
        ...(body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {}),
      },
    });
    req.on('socket', () => (outcome.reused = req.reusedSocket));
    req.on('finish', () => (outcome.sent = true));
    req.on('response', (res) => {
      outcome.answeredAt = performance.now();
      outcome.status = res.statusCode;
      outcome.connection = res.headers.connection;
      res.resume();
      res.on('end', () => resolve(outcome));
      res.on('error', (error: NodeJS.ErrnoException) => resolve({ ...outcome, error: error.code ?? error.message }));
      res.on('close', () => res.complete || resolve({ ...outcome, error: 'incomplete response' }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ ...outcome, error: error.code ?? error.message }));
    req.end(body);
  });
}

/**
 * A request whose first part is written now and the rest later: the service has begun reading it, so it is in
 * flight, and its connection is busy rather than idle when the shutdown begins.
 */
async function heldRequest(origin: string, firstPart: string): Promise<(rest: string) => Promise<RawResponse>> {
  const { hostname, port } = new URL(origin);
  const socket: Socket = connect(Number(port), hostname);
  let received = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk) => (received += chunk));
  const ended = new Promise<void>((resolve, reject) => {
    socket.on('close', () => resolve());
    socket.on('error', reject);
  });
  await new Promise<void>((resolve) => socket.write(firstPart, () => resolve()));
  return async (rest) => {
    socket.write(rest);
    await ended;
    const [head, body] = received.split('\r\n\r\n');
    const [statusLine, ...lines] = head.split('\r\n');
    const headers = Object.fromEntries(
      lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
    );
    return { status: Number(statusLine.split(' ')[1]), headers, body };
  };
}

/** Resolves (to performance.now()) when a new TCP connection is refused: the service has closed its listener. */
async function untilRefused(origin: string, timeoutMs: number): Promise<number> {
  const { hostname, port } = new URL(origin);
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    const refused = await new Promise<boolean>((resolve) => {
      const socket = connect(Number(port), hostname);
      socket.on('connect', () => {
        socket.destroy();
        resolve(false);
      });
      socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
    });
    if (refused) return performance.now();
    await sleep(5);
  }
  throw new Error('the service kept accepting connections after SIGTERM');
}

describe('SIGTERM under load', () => {
  let service: NodeProcess | undefined;
  let database: Database | undefined;

  afterEach(async () => {
    if (service && service.child.exitCode === null && service.child.signalCode === null) {
      service.child.kill('SIGKILL');
      await service.exited;
    }
    await database?.drop();
    service = database = undefined;
  });

  it.each([
    ['SQLite', async () => sqliteDatabase()],
    ['PostgreSQL', postgresDatabase],
  ])('%s: fails no request it read, refuses new connections, and exits 0 within 10 s with the database closed', async (kind, createDatabase) => {
    database = await createDatabase();
    service = await spawnService({ env: { API_KEYS: TEST_KEY, DATABASE_URL: database.url } });
    const { origin } = service;
    await waitUntilLive(service);
    const headers = { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' };
    const petIds: number[] = [];
    for (let i = 0; i < 20; i++) {
      const response = await fetch(`${origin}/v1/pets`, { method: 'POST', headers, body: JSON.stringify({ name: `Seed ${i}`, categoryId: 1 }) });
      expect(response.status).toBe(201);
      petIds.push(((await response.json()) as { id: number }).id);
    }

    // Begun before the signal, finished after the listener closed.
    const finishReadiness = await heldRequest(origin, 'GET /health/ready HTTP/1.1\r\nHost: petstore\r\n');
    const slowBody = JSON.stringify({ name: 'Slow upload', categoryId: 1 });
    const finishCreate = await heldRequest(
      origin,
      `POST /v1/pets HTTP/1.1\r\nHost: petstore\r\nAuthorization: Bearer ${TEST_KEY}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(slowBody)}\r\nConnection: keep-alive\r\n\r\n${slowBody.slice(0, 10)}`,
    );

    const agent = new Agent({ keepAlive: true, maxSockets: LOOPS });
    const outcomes: Outcome[] = [];
    let sequence = 0;
    let signalledAt = Number.POSITIVE_INFINITY;
    const loops = Array.from({ length: LOOPS }, async (_, loop) => {
      const operations: Operation[] = ['listPets', 'getPet', 'createPet'];
      // Until the service refuses a new connection: the agent retires a socket whose response said
      // `Connection: close`, so the loop's next request asks for a new one.
      while (performance.now() < signalledAt + 15_000) {
        const outcome = await send(agent, origin, operations[(loop + sequence) % 3], `load-${loop}-${sequence++}`, petIds);
        outcomes.push(outcome);
        if (outcome.error === 'ECONNREFUSED') return;
        // A pause, as real clients make: the signal finds some connections idle, with the next request to come.
        await sleep(Math.random() * THINK_MS);
      }
    });

    await sleep(WARM_UP_MS);
    signalledAt = performance.now();
    service.child.kill('SIGTERM');
    const refusedAt = await untilRefused(origin, 10_000);
    const readiness = await finishReadiness('\r\n');
    const slowCreate = await finishCreate(slowBody.slice(10));
    const exit = await service.exited;
    const shutdownMs = Math.round(performance.now() - signalledAt);
    await Promise.all(loops);
    agent.destroy();

    const answered = outcomes.filter((outcome) => outcome.status !== undefined && outcome.error === undefined);
    // Refused at connect: the request never reached the service.
    const refused = outcomes.filter((outcome) => outcome.error === 'ECONNREFUSED' && !outcome.sent);
    const failed = outcomes.filter((outcome) => !answered.includes(outcome) && !refused.includes(outcome));
    const serverErrors = answered.filter((outcome) => (outcome.status ?? 0) >= 500);
    const closing = answered.filter((outcome) => outcome.connection?.toLowerCase() === 'close');
    // A request begun after a `Connection: close` arrived was read by a service already stopping: its answer
    // must retire its connection too.
    const firstClose = Math.min(...closing.map((outcome) => outcome.answeredAt ?? Number.POSITIVE_INFINITY));
    const readWhileStopping = answered.filter((outcome) => outcome.startedAt > firstClose);
    const keptAlive = readWhileStopping.filter((outcome) => !closing.includes(outcome));
    const created = answered.filter((outcome) => outcome.status === 201).length + (slowCreate.status === 201 ? 1 : 0);
    console.log(
      `${kind}: SIGTERM -> exit ${shutdownMs} ms (new connections refused after ${Math.round(refusedAt - signalledAt)} ms); ` +
        `${answered.length} answered, ${closing.length} with Connection: close (${readWhileStopping.length} read while stopping), ` +
        `${refused.length} refused, ${failed.length} failed, ${serverErrors.length} 5xx, ${created} created`,
    );

    expect(exit).toEqual({ code: 0, signal: null });
    expect(shutdownMs).toBeLessThan(10_000);
    expect(failed).toEqual([]);
    expect(serverErrors).toEqual([]);
    // Judged by what the load did, not by how much a machine managed: it was under way when the signal came.
    expect(answered.filter((outcome) => outcome.startedAt > signalledAt).length).toBeGreaterThan(0);
    expect(closing.length).toBeGreaterThan(0);
    expect(keptAlive).toEqual([]);
    // Each loop ran until the service refused it, and only after the signal.
    expect(refused).toHaveLength(LOOPS);
    expect(refused.every((outcome) => outcome.startedAt > signalledAt)).toBe(true);

    expect(readiness).toMatchObject({ status: 503, headers: { connection: 'close' } });
    expect(JSON.parse(readiness.body)).toMatchObject({ code: 'service_unavailable' });
    expect(slowCreate).toMatchObject({ status: 201, headers: { connection: 'close' } });

    await database.assertClosedCleanly();
    // Every 201 was durable: the seeds, the load's creates and the slow upload.
    expect(await database.countPets()).toBe(petIds.length + created);
  });
});
