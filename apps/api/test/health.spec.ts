import { DataSource } from 'typeorm';
import { ShutdownState } from '../src/app/http/shutdown-state';
import { expectError } from './support/assertions';
import { JSON_AUTH, TEST_KEY, startApp, type TestApp } from './support/test-app';

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
    const routable = await fetch(`${sut.origin}/health/routable`);
    expect(routable.status).toBe(200);
    expect(await routable.json()).toEqual({ status: 'ok' });
  });

  it('reports not ready with 503 when the database is gone, while staying live', async () => {
    await sut.app.get(DataSource).destroy();
    const ready = await fetch(`${sut.origin}/health/ready`);
    // The whole body, as an orchestrator or a load balancer logs it: what Terminus reports stays inside.
    expect(await expectError(ready, 503, 'service_unavailable')).toBe('The database is not reachable right now; retry shortly.');
    expect(ready.headers.get('retry-after')).toBe('1');
    expect((await fetch(`${sut.origin}/health/live`)).status).toBe(200);
  });

  // Kubernetes' readiness: the instance stays in the Service, so that callers get its 503 rather than no endpoint.
  it('stays routable while the database is gone, its operations answering 503 with Retry-After', async () => {
    await sut.app.get(DataSource).destroy();
    expect((await fetch(`${sut.origin}/health/routable`)).status).toBe(200);
    expect((await fetch(`${sut.origin}/health/ready`)).status).toBe(503);
    const create = await fetch(`${sut.origin}/v1/pets`, { method: 'POST', headers: JSON_AUTH, body: '{"name":"Rex","categoryId":1}' });
    await expectError(create, 503, 'service_unavailable');
    expect(create.headers.get('retry-after')).toBe('1');
  });

  it('reports neither ready nor routable once shutdown has begun', async () => {
    sut.app.get(ShutdownState).beforeApplicationShutdown();
    await expectError(await fetch(`${sut.origin}/health/ready`), 503, 'service_unavailable');
    expect(await expectError(await fetch(`${sut.origin}/health/routable`), 503, 'service_unavailable')).toBe('The service is shutting down.');
  });
});
