import { DataSource } from 'typeorm';
import { ShutdownState } from '../src/app/http/shutdown-state';
import { expectError } from './support/assertions';
import { TEST_KEY, startApp, type TestApp } from './support/test-app';

describe('health probes', () => {
  let sut: TestApp;
  beforeEach(async () => {
    sut = await startApp();
  });
  afterEach(() => sut.close().catch(() => undefined));

  it('reports live and ready without a key, leaking nothing', async () => {
    const live = await fetch(`${sut.origin}/health/live`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${sut.origin}/health/ready`);
    expect(ready.status).toBe(200);
    const text = await ready.text();
    expect(JSON.parse(text)).toMatchObject({ status: 'ok' });
    expect(text).not.toContain(sut.database.url);
    expect(text).not.toContain('petstore_test');
    expect(text).not.toContain(TEST_KEY);
  });

  it('reports not ready with 503 when the database is gone, while staying live', async () => {
    await sut.app.get(DataSource).destroy();
    const ready = await fetch(`${sut.origin}/health/ready`);
    // The whole body, as an orchestrator or a load balancer logs it: what Terminus reports stays inside.
    expect(await expectError(ready, 503, 'service_unavailable')).toBe('The database is not reachable right now; retry shortly.');
    expect(ready.headers.get('retry-after')).toBe('1');
    expect((await fetch(`${sut.origin}/health/live`)).status).toBe(200);
  });

  it('reports not ready once shutdown has begun', async () => {
    sut.app.get(ShutdownState).beforeApplicationShutdown();
    await expectError(await fetch(`${sut.origin}/health/ready`), 503, 'service_unavailable');
  });
});
