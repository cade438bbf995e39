import { request, type ClientRequest, type IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createPostgresDatabase, percentile } from '@petstore/testing';
import { cpuSeconds, cpuSnapshot } from './cpu';
import { table } from './report';
import { API_KEY, residentMb, type RunningServer, startService, stopServer } from './servers';

// `--streams`: many open event streams on one instance (GET /v1/events), what they cost in memory, and how soon a
// create reaches every one of them; then a subscriber that reads nothing while a burst of events passes, which the
// instance must let go rather than buffer for. Figures, never a verdict on speed: the machine's speed varies.

export interface StreamsOptions {
  databases: Array<'sqlite' | 'postgres'>;
  postgresUrl: string;
  /** Streams opened on the one instance. */
  streams: number;
  /** Pets created, one after another at `rate` per second, while they are open. */
  creates: number;
}

export interface StreamsRun {
  database: 'sqlite' | 'postgres';
  streams: number;
  /** Resident MB with none open, with all open and idle, and the peak of the whole run. */
  idleMb: number;
  openMb: number;
  peakMb: number;
  kbPerStream: number;
  creates: number;
  /** From a create's request sent to its event at a stream, over every stream and create (ms). */
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** CPU seconds of the instance (and its PostgreSQL backends) per 1,000 events delivered. */
  cpuPer1kDeliveries: number;
  /** The subscriber that read nothing: what the burst was, whether it was let go, and the instance's memory meanwhile. */
  slow: { events: number; bytes: number; letGo: boolean; mbBefore: number; mbPeakWithout: number; mbPeakDuring: number; othersComplete: boolean };
}

const RATE = 50;
const SLOW_BURST = 40_000;
/** The longest wait for every stream to have every event: a limit for a stuck run, not a measure. */
const DELIVERED_WITHIN_MS = 120_000;

/** One stream as the bench reads it: the names of the pets it was sent, and when each arrived. */
class StreamReader {
  readonly arrivals = new Map<string, number>();
  opened = false;
  ended = false;
  private request?: ClientRequest;
  private pending = '';

  open(origin: string): void {
    this.request = request(`${origin}/v1/events`, { headers: { authorization: `Bearer ${API_KEY}` }, agent: false }, (response: IncomingMessage) => {
      if (response.statusCode !== 200) throw new Error(`a stream was refused: HTTP ${response.statusCode}`);
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => this.take(chunk));
      response.on('close', () => (this.ended = true));
    });
    this.request.on('error', () => (this.ended = true));
    this.request.end();
  }

  close(): void {
    this.request?.destroy();
  }

  /** Only what the bench needs of each event: its pet's name, found without parsing the JSON. */
  private take(chunk: string): void {
    this.opened = true;
    const now = performance.now();
    this.pending += chunk;
    const lastEnd = this.pending.lastIndexOf('\n\n');
    if (lastEnd === -1) return;
    for (const match of this.pending.slice(0, lastEnd).matchAll(/"name":"([^"]+)"/g)) this.arrivals.set(match[1], now);
    this.pending = this.pending.slice(lastEnd + 2);
  }
}

async function until(condition: () => boolean, what: string, timeoutMs = DELIVERED_WITHIN_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await sleep(20);
  }
}

async function create(origin: string, name: string): Promise<void> {
  const response = await fetch(`${origin}/v1/pets`, {
    method: 'POST',
    headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name, categoryId: 1 }),
  });
  if (response.status !== 201) throw new Error(`a create answered ${response.status}: ${await response.text()}`);
}

async function runOne(service: RunningServer, database: 'sqlite' | 'postgres', options: StreamsOptions): Promise<StreamsRun> {
  const { origin, pid } = service;
  const pids = async () => [pid, ...((await service.databasePids?.()) ?? [])];
  // Warm: the feed has run once, the routes and statements are compiled.
  const warm = new StreamReader();
  warm.open(origin);
  await until(() => warm.opened, 'a first stream');
  for (let i = 0; i < 50; i += 1) await create(origin, `warm-${i}`);
  await until(() => warm.arrivals.size === 50, 'the warm-up events');
  warm.close();
  await sleep(2_000);
  const idleMb = residentMb(pid, 'VmRSS');

  const readers = Array.from({ length: options.streams }, () => new StreamReader());
  for (const [index, reader] of readers.entries()) {
    reader.open(origin);
    // A few at a time, as clients arrive, rather than a thousand connections in one instant.
    if (index % 50 === 49) await until(() => readers.slice(0, index + 1).every((one) => one.opened), 'the streams open');
  }
  await until(() => readers.every((one) => one.opened), 'every stream open');
  await sleep(2_000);
  const openMb = residentMb(pid, 'VmRSS');

  const sentAt = new Map<string, number>();
  const before = cpuSnapshot(await pids());
  for (let i = 0; i < options.creates; i += 1) {
    const name = `stream-bench-${i}`;
    sentAt.set(name, performance.now());
    await create(origin, name);
    await sleep(Math.max(0, 1000 / RATE - (performance.now() - (sentAt.get(name) as number))));
  }
  await until(() => readers.every((one) => one.arrivals.size >= options.creates), 'every event at every stream');
  const cpu = cpuSeconds(before, cpuSnapshot(await pids()), await pids());
  const delays = readers.flatMap((one) => [...one.arrivals].filter(([name]) => sentAt.has(name)).map(([name, at]) => at - (sentAt.get(name) as number))).sort((a, b) => a - b);
  for (const reader of readers) reader.close();
  await sleep(1_000);

  const slow = await slowSubscriber(origin, pid);
  return {
    database,
    streams: options.streams,
    idleMb,
    openMb,
    peakMb: residentMb(pid, 'VmHWM'),
    kbPerStream: ((openMb - idleMb) * 1024) / options.streams,
    creates: options.creates,
    p50Ms: percentile(delays, 50),
    p99Ms: percentile(delays, 99),
    maxMs: delays[delays.length - 1],
    cpuPer1kDeliveries: (cpu * 1000) / delays.length,
    slow,
  };
}

/** Creates SLOW_BURST pets from 16 loops at once, named after `tag`; the instance's peak resident MB meanwhile. */
async function burst(origin: string, pid: number, tag: string): Promise<number> {
  let peak = residentMb(pid, 'VmRSS');
  const watching = setInterval(() => (peak = Math.max(peak, residentMb(pid, 'VmRSS'))), 50);
  // Long names: more bytes per event, so that the burst outgrows the buffers between the two processes.
  const name = (i: number) => `${tag}-${i}-${'x'.repeat(70)}`;
  let next = 0;
  try {
    await Promise.all(Array.from({ length: 16 }, async () => {
      while (next < SLOW_BURST) await create(origin, name(next++));
    }));
  } finally {
    clearInterval(watching);
  }
  return peak;
}

/**
 * A burst of SLOW_BURST creates with one stream reading, then another with a subscriber beside it that sent its request
 * and never reads: that one must be let go (its connection closed), and the instance's peak memory during its burst
 * must not exceed the first's by more than the bound it keeps per stream; the reader must get every event.
 */
async function slowSubscriber(origin: string, pid: number): Promise<StreamsRun['slow']> {
  const first = new StreamReader();
  first.open(origin);
  await until(() => first.opened, 'the reading stream');
  const mbPeakWithout = await burst(origin, pid, 'burst-alone');
  await until(() => first.arrivals.size >= SLOW_BURST, 'every event of the first burst at the reading stream');
  first.close();
  const { hostname, port } = new URL(origin);
  const socket: Socket = connect(Number(port), hostname);
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write(`GET /v1/events HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${API_KEY}\r\n\r\n`);
  // Never read: the kernel's buffers fill, then the instance's own, up to its bound.
  socket.pause();
  let letGo = false;
  socket.once('close', () => (letGo = true));
  const reader = new StreamReader();
  reader.open(origin);
  await until(() => reader.opened, 'the reading stream');
  await sleep(500);
  const mbBefore = residentMb(pid, 'VmRSS');
  const mbPeakDuring = await burst(origin, pid, 'burst-slow');
  await until(() => reader.arrivals.size >= SLOW_BURST, 'every event of the burst at the reading stream');
  // Reading now drains what the kernel held; a stream let go then ends, one kept would go on.
  socket.resume();
  let bytes = 0;
  socket.on('data', (chunk: Buffer) => (bytes += chunk.length));
  await until(() => letGo, 'the slow subscriber let go', 30_000).catch(() => undefined);
  socket.destroy();
  reader.close();
  return { events: SLOW_BURST, bytes, letGo, mbBefore, mbPeakWithout, mbPeakDuring, othersComplete: reader.arrivals.size >= SLOW_BURST };
}

export async function streamsBench(options: StreamsOptions, dir: string): Promise<{ runs: StreamsRun[]; failed: boolean }> {
  const runs: StreamsRun[] = [];
  for (const database of options.databases) {
    const postgres = database === 'postgres' ? await createPostgresDatabase(options.postgresUrl, 'bench_streams') : undefined;
    const service = await startService({
      databaseUrl: postgres?.url ?? `sqlite:${join(dir, `streams.sqlite`)}`,
      logFile: join(dir, `streams-${database}.log`),
      logLevel: 'warn',
      env: { EVENT_STREAMS_PER_KEY: String(options.streams + 10), EVENT_STREAMS_MAX: String(options.streams + 10) },
    });
    try {
      process.stdout.write(`${database}: ${options.streams} streams…\n`);
      runs.push(await runOne(service, database, options));
    } finally {
      await stopServer(service);
      await postgres?.drop();
    }
  }
  const ms = (value: number) => value.toFixed(0);
  process.stdout.write(
    `\n${options.streams} event streams open on one instance, ${options.creates} creates at ${RATE}/s: memory, and a create's delay to its event at every stream (request sent to event read)\n` +
      `${table(
        ['database', 'MB idle', 'MB open', 'KB/stream', 'MB peak', 'p50 ms', 'p99 ms', 'max ms', 'CPU s/1k deliveries'],
        runs.map((run) => [run.database, run.idleMb.toFixed(0), run.openMb.toFixed(0), run.kbPerStream.toFixed(1), run.peakMb.toFixed(0), ms(run.p50Ms), ms(run.p99Ms), ms(run.maxMs), run.cpuPer1kDeliveries.toFixed(3)]),
      )}\n` +
      `\na subscriber that reads nothing while ${SLOW_BURST.toLocaleString('en-US')} events pass (one that reads beside it), against the same burst without it\n` +
      `${table(
        ['database', 'let go', 'MB peak without it', 'MB before', 'MB peak with it', 'bytes it could still read', 'the reader got all'],
        runs.map(({ database, slow }) => [database, slow.letGo ? 'yes' : 'NO', slow.mbPeakWithout.toFixed(0), slow.mbBefore.toFixed(0), slow.mbPeakDuring.toFixed(0), String(slow.bytes), slow.othersComplete ? 'yes' : 'NO']),
      )}\n`,
  );
  return { runs, failed: runs.some(({ slow }) => !slow.letGo || !slow.othersComplete) };
}
