import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, TcpRelay } from '@petstore/testing';
import { expectError } from '../support/assertions';
import { AUTH, JSON_AUTH, startApp, type TestApp } from '../support/test-app';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

// The database goes away and comes back: the process stays up, answers 503 within a bounded time, and resumes alone.

describe('PostgreSQL outage', () => {
  let database: TestDatabase;
  let proxy: TcpRelay;
  let sut: TestApp | undefined;

  const env = () => {
    const url = new URL(database.url);
    url.port = String(proxy.port);
    url.hostname = '127.0.0.1';
    return { DATABASE_URL: url.href, DATABASE_CONNECT_TIMEOUT_MS: '1000', DATABASE_STATEMENT_TIMEOUT_MS: '2000' };
  };
  const list = () => fetch(`${sut?.origin}/v1/pets`, { headers: AUTH, signal: AbortSignal.timeout(10_000) });
  const create = () =>
    fetch(`${sut?.origin}/v1/pets`, { method: 'POST', headers: JSON_AUTH, body: '{"name":"Rex","categoryId":1}', signal: AbortSignal.timeout(10_000) });
  const ready = async () => (await fetch(`${sut?.origin}/health/ready`)).status;
  /** Milliseconds until `check` holds, polling; fails past `limitMs`. */
  const timeUntil = async (check: () => Promise<boolean>, limitMs: number) => {
    const started = Date.now();
    while (!(await check())) {
      if (Date.now() - started > limitMs) throw new Error(`condition not met within ${limitMs} ms`);
      await sleep(100);
    }
    return Date.now() - started;
  };

  beforeEach(async () => {
    database = await createTestDatabase();
    proxy = new TcpRelay(await freePort(), { host: new URL(database.url).hostname, port: Number(new URL(database.url).port || 5432) });
  });
  afterEach(async () => {
    // The relay goes first, so that no connection is left hanging on a frozen database.
    await proxy.stop();
    await sut?.close();
    sut = undefined;
    await database.drop();
  });

  it('answers 503 while the database is away mid-run, stays live, and resumes on its own', async () => {
    await proxy.start();
    sut = await startApp({ database, env: env() });
    expect((await create()).status).toBe(201);

    await proxy.stop();
    const outageStarted = Date.now();
    for (const response of [await list(), await create()]) {
      await expectError(response, 503, 'service_unavailable');
      expect(response.headers.get('retry-after')).toBe('1');
    }
    const toFirst503 = Date.now() - outageStarted;
    expect(toFirst503).toBeLessThan(8_000);
    const notReady = await fetch(`${sut.origin}/health/ready`);
    expect(await expectError(notReady, 503, 'service_unavailable')).toBe('The database is not reachable right now; retry shortly.');
    expect((await fetch(`${sut.origin}/health/live`)).status).toBe(200);

    await proxy.start();
    const toRecovery = await timeUntil(async () => (await list()).status === 200, 30_000);
    expect((await create()).status).toBe(201);
    expect(await ready()).toBe(200);
    process.stderr.write(`PostgreSQL outage: two requests answered 503 within ${toFirst503} ms; served again ${toRecovery} ms after the database returned\n`);
  });

  it('never lets a request hang on a database that stops answering', async () => {
    await proxy.start();
    sut = await startApp({ database, env: env() });
    expect((await create()).status).toBe(201);

    proxy.freeze();
    const started = Date.now();
    const responses = await Promise.all([list(), create(), list()]);
    const slowest = Date.now() - started;
    for (const response of responses) await expectError(response, 503, 'service_unavailable');
    // Statement timeout 2 s, plus 1 s of client-side read timeout, plus the pool's 1 s connect timeout at most.
    expect(slowest).toBeLessThan(6_000);
    expect(await ready()).toBe(503);

    proxy.thaw();
    await timeUntil(async () => (await list()).status === 200, 30_000);
    process.stderr.write(`PostgreSQL hanging: every request answered 503 within ${slowest} ms\n`);
  });

  it('answers reads queued behind a hanging lookup together with it, not one timeout later', async () => {
    await proxy.start();
    sut = await startApp({ database, env: env() });
    const pet = (await (await create()).json()) as { id: number };

    proxy.freeze();
    const get = async (id: number) => {
      const response = await fetch(`${sut?.origin}/v1/pets/${id}`, { headers: AUTH, signal: AbortSignal.timeout(10_000) });
      return { response, at: Date.now() };
    };
    // The first read's lookup hangs; the second waits behind it for the next batch (database/batching/batched-lookup.ts).
    const first = get(pet.id);
    await sleep(500);
    const secondSent = Date.now();
    const [one, two] = await Promise.all([first, get(pet.id + 1)]);
    for (const { response } of [one, two]) await expectError(response, 503, 'service_unavailable');
    expect(two.at - one.at).toBeLessThan(1_000);
    expect(two.at - secondSent).toBeLessThan(6_000);
    proxy.thaw();
  });

  it('starts while the database is unreachable, answers 503, and becomes ready once it is there', async () => {
    sut = await startApp({ database, env: env() });
    expect(await ready()).toBe(503);
    await expectError(await list(), 503, 'service_unavailable');
    await expectError(await create(), 503, 'service_unavailable');

    await proxy.start();
    const toReady = await timeUntil(async () => (await ready()) === 200, 30_000);
    expect((await create()).status).toBe(201);
    expect((await list()).status).toBe(200);
    process.stderr.write(`PostgreSQL absent at start-up: ready ${toReady} ms after the database appeared\n`);
  });
});
