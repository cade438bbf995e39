import { AUTH, JSON_AUTH, TEST_KEY, startApp, type TestApp } from './support/test-app';

describe('logs', () => {
  let sut: TestApp;
  beforeAll(async () => {
    sut = await startApp();
  });
  afterAll(() => sut.close());

  it('writes one JSON line per request with its request id, method, URL and status', async () => {
    const before = Date.now();
    const response = await fetch(`${sut.origin}/v1/pets?limit=3`, { headers: { ...AUTH, 'x-request-id': 'log-test-1' } });
    expect(response.status).toBe(200);
    const lines = sut.logs().filter((line) => line.reqId === 'log-test-1');
    expect(lines).toEqual([
      expect.objectContaining({ method: 'GET', url: '/v1/pets?limit=3', statusCode: 200, msg: 'request completed' }),
    ]);
    expect(lines[0].responseTimeMs).toEqual(expect.any(Number));
    expect(lines[0]).toMatchObject({ level: 30, service: 'petstore' });
    // An ISO time of this request, not one kept from an earlier line.
    expect(lines[0].time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Date.parse(lines[0].time as string)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(lines[0].time as string)).toBeLessThanOrEqual(Date.now());
  });

  it('never writes a key, whether accepted, refused or sent in a body', async () => {
    await fetch(`${sut.origin}/v1/pets`, { headers: AUTH });
    await fetch(`${sut.origin}/v1/pets`, { headers: { authorization: 'Bearer pk_wrong_canary_0000000000' } });
    await fetch(`${sut.origin}/v1/pets`, { method: 'POST', headers: JSON_AUTH, body: JSON.stringify({ name: TEST_KEY }) });
    await fetch(`${sut.origin}/v1/pets/${TEST_KEY}`, { headers: AUTH });
    const raw = sut.rawLogs();
    // The key in the URL path is the client's own doing; it appears in the URL field only, never as a credential.
    const withoutUrls = raw.replace(/"url":"[^"]*"/g, '');
    expect(withoutUrls).not.toContain(TEST_KEY);
    expect(raw).not.toContain('pk_wrong_canary');
    expect(raw.toLowerCase()).not.toContain('authorization":"bearer');
  });
});
