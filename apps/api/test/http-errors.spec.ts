import { DataSource } from 'typeorm';
import { PetsRepository } from '../src/app/pets/pets.repository';
import { expectError } from './support/assertions';
import { rawRequest } from './support/raw-http';
import { AUTH, JSON_AUTH, startApp, type TestApp } from './support/test-app';

describe('errors from every layer are the Error object', () => {
  let sut: TestApp;
  beforeAll(async () => {
    sut = await startApp();
  });
  afterAll(() => sut.close());

  describe('routing', () => {
    it.each(['/', '/nope', '/v1', '/v1/pet', '/v2/pets', '/v1/pets/1/owner', '/v1/pets/', '//v1/pets'])('answers 404 not_found for %s', async (path) => {
      await expectError(await fetch(`${sut.origin}${path}`, { headers: AUTH }), 404, 'not_found');
    });

    it.each([
      ['DELETE', '/v1/pets', 'GET, HEAD, POST'],
      ['PUT', '/v1/pets', 'GET, HEAD, POST'],
      ['PATCH', '/v1/pets/1', 'GET, HEAD'],
      ['DELETE', '/v1/pets/1', 'GET, HEAD'],
      ['POST', '/v1/pets/1', 'GET, HEAD'],
      ['OPTIONS', '/v1/pets', 'GET, HEAD, POST'],
    ])('answers %s %s with 405 and Allow: %s', async (method, path, allow) => {
      const response = await fetch(`${sut.origin}${path}`, { method, headers: AUTH });
      await expectError(response, 405, 'method_not_allowed');
      expect(response.headers.get('allow')).toBe(allow);
    });
  });

  describe('bounds', () => {
    it('answers a URL over 8 KiB with 414', async () => {
      const response = await fetch(`${sut.origin}/v1/pets?pad=${'x'.repeat(8 * 1024)}`, { headers: AUTH });
      await expectError(response, 414, 'uri_too_long');
    });

    it('answers headers over 16 KiB with 431', async () => {
      const response = await fetch(`${sut.origin}/v1/pets`, { headers: { ...AUTH, 'x-pad': 'x'.repeat(17 * 1024) } });
      await expectError(response, 431, 'header_too_large');
    });

    it('answers even larger heads, refused by Node itself, with 431 as an Error object', async () => {
      const response = await rawRequest(sut.origin, `GET /v1/pets HTTP/1.1\r\nHost: x\r\nX-Pad: ${'x'.repeat(64 * 1024)}\r\n\r\n`);
      expect(response.status).toBe(431);
      expect(JSON.parse(response.body)).toEqual({ code: 'header_too_large', message: expect.any(String), status: 431 });
    });
  });

  describe('malformed HTTP', () => {
    it('answers an HTTP/1.1 request without Host with 400 bad_request', async () => {
      const response = await rawRequest(sut.origin, 'GET /v1/pets HTTP/1.1\r\nAuthorization: Bearer x\r\n\r\n');
      expect(response.status).toBe(400);
      expect(JSON.parse(response.body)).toMatchObject({ code: 'bad_request', status: 400 });
    });

    it('refuses a request with both Content-Length and Transfer-Encoding', async () => {
      const response = await rawRequest(
        sut.origin,
        'POST /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 4\r\n' +
          'Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      );
      expect(response.status).toBe(400);
      expect(JSON.parse(response.body)).toMatchObject({ code: 'bad_request', status: 400 });
    });

    it('answers a garbled request line with 400 as an Error object', async () => {
      const response = await rawRequest(sut.origin, 'HELLO\r\n\r\n');
      expect(response.status).toBe(400);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(response.body)).toMatchObject({ code: 'bad_request', status: 400 });
    });

    it('answers a malformed percent-encoding with 400', async () => {
      const response = await fetch(`${sut.origin}/v1/pets/%E0%A4%A`, { headers: AUTH });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { status: number }).status).toBe(400);
    });
  });

  describe('slow clients', () => {
    const timed = async (payload: string) => {
      const started = Date.now();
      const response = await rawRequest(sut.origin, payload, 20_000);
      return { ...response, seconds: (Date.now() - started) / 1000 };
    };

    it('answers headers or a body not complete within 10 s with 408, and closes idle keep-alive after 5 s', async () => {
      const [slowHeaders, slowBody, idle] = await Promise.all([
        timed('GET /v1/pets HTTP/1.1\r\nHost: x\r\nX-Slow: '),
        timed(
          `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH.authorization}\r\n` +
            'Content-Type: application/json\r\nContent-Length: 40\r\n\r\n{"name":',
        ),
        (async () => {
          const started = Date.now();
          const { connect } = await import('node:net');
          const socket = connect(Number(new URL(sut.origin).port), '127.0.0.1');
          socket.write('GET /health/live HTTP/1.1\r\nHost: x\r\n\r\n');
          socket.resume();
          await new Promise((resolve) => socket.on('close', resolve));
          return (Date.now() - started) / 1000;
        })(),
      ]);
      for (const response of [slowHeaders, slowBody]) {
        expect(response.status).toBe(408);
        expect(JSON.parse(response.body)).toEqual({ code: 'request_timeout', message: expect.any(String), status: 408 });
        expect(response.seconds).toBeGreaterThanOrEqual(9.5);
        expect(response.seconds).toBeLessThan(13);
      }
      expect(idle).toBeGreaterThanOrEqual(4.5);
      expect(idle).toBeLessThan(8);
    }, 30_000);
  });

  describe('request ids', () => {
    it('gives every response an X-Request-Id, keeping a sane one sent by the client', async () => {
      const own = await fetch(`${sut.origin}/v1/pets`, { headers: { ...AUTH, 'x-request-id': 'trace-123' } });
      expect(own.headers.get('x-request-id')).toBe('trace-123');
      const made = await fetch(`${sut.origin}/v1/pets`, { headers: { ...AUTH, 'x-request-id': 'bad id\twith "quotes"' } });
      expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    });
  });

  describe('failures inside the service', () => {
    it('answers an unexpected failure with 500 internal_error, without details, and logs it', async () => {
      jest.spyOn(sut.app.get(PetsRepository), 'findPage').mockRejectedValue(new Error('SQLITE_CORRUPT: secret details at /var/lib'));
      const message = await expectError(await fetch(`${sut.origin}/v1/pets`, { headers: AUTH }), 500, 'internal_error');
      expect(message).not.toMatch(/SQLITE|secret|\/var\/lib|at /);
      expect(sut.logs().some((line) => line.level === 50 && String(line.msg).includes('SQLITE_CORRUPT'))).toBe(true);
    });

    it('answers 503 service_unavailable with Retry-After when the database is gone', async () => {
      const broken = await startApp();
      try {
        await broken.app.get(DataSource).destroy();
        const response = await fetch(`${broken.origin}/v1/pets`, { method: 'POST', headers: JSON_AUTH, body: '{"name":"a","categoryId":1}' });
        await expectError(response, 503, 'service_unavailable');
        expect(response.headers.get('retry-after')).toBe('1');
      } finally {
        await broken.close().catch(() => undefined);
      }
    });
  });
});
