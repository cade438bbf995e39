import { DataSource } from 'typeorm';
import { PetStore } from '../src/app/pets/pet.store';
import { expectError } from './support/assertions';
import type { ErrorCode } from '@petstore/contract';
import { type RawResponse, rawRequest, rawUpload } from './support/raw-http';
import { AUTH, JSON_AUTH, startApp, type TestApp } from './support/test-app';

describe('errors from every layer are the Error object', () => {
  let sut: TestApp;
  beforeAll(async () => {
    sut = await startApp();
  });
  afterAll(() => sut.close());

  describe('routing', () => {
    it.each(['/nope', '/index.html', '/v1', '/v1/pet', '/v2/pets', '/v1/pets/1/owner', '/v1/pets/', '//v1/pets'])('answers 404 not_found for %s', async (path) => {
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
      expectRawError(response, 431, 'header_too_large');
    });

    it('measures headers as sent: a header section of exactly 16 KiB is served, one byte more is 431', async () => {
      const lines = `Host: x\r\nAuthorization: ${AUTH.authorization}\r\n`;
      // Each line is `name: value` and CRLF; the blank line that ends the head is not part of the section.
      const padTo = (bytes: number) => `${lines}X-Pad: ${'x'.repeat(bytes - lines.length - 'X-Pad: \r\n'.length)}\r\n`;
      expect((await rawRequest(sut.origin, `GET /v1/pets HTTP/1.1\r\n${padTo(16 * 1024)}\r\n`)).status).toBe(200);
      expectRawError(await rawRequest(sut.origin, `GET /v1/pets HTTP/1.1\r\n${padTo(16 * 1024 + 1)}\r\n`), 431, 'header_too_large');
    });

    it('counts every header line: 3,000 short ones (about 35 KB) get 431, none is dropped unmeasured', async () => {
      const many = Array.from({ length: 3_000 }, (_, i) => `X-${i}: v\r\n`).join('');
      const response = await rawRequest(sut.origin, `GET /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH.authorization}\r\n${many}\r\n`);
      expectRawError(response, 431, 'header_too_large');
    });

    it.each([
      ['100 KiB', 100 * 1024],
      ['1 MiB', 1024 * 1024],
    ])('answers a URL of %s, past Node\'s own limit on heads, with 414', async (_, bytes) => {
      const response = await rawRequest(sut.origin, `GET /v1/pets?pad=${'x'.repeat(bytes)} HTTP/1.1\r\nHost: x\r\n\r\n`, 10_000);
      expectRawError(response, 414, 'uri_too_long');
    });

    it('answers a URL over 8 KiB with 414 when the header lines after it are large too', async () => {
      const response = await rawRequest(sut.origin, `GET /v1/pets?pad=${'x'.repeat(30 * 1024)} HTTP/1.1\r\nHost: x\r\nX-Pad: ${'y'.repeat(15 * 1024)}\r\n\r\n`);
      expectRawError(response, 414, 'uri_too_long');
    });
  });

  describe('answers sent before the body has arrived', () => {
    const post = (headers: string) => `POST /v1/pets HTTP/1.1\r\nHost: x\r\n${headers}\r\n`;
    const JSON_KEY = `Authorization: ${AUTH.authorization}\r\nContent-Type: application/json\r\n`;
    const CHUNKED = 'Transfer-Encoding: chunked\r\n';
    const MIB = 1024 * 1024;

    it('reach a client that keeps writing a 64 KiB chunked body: 413, every time', async () => {
      for (let attempt = 0; attempt < 10; attempt += 1) {
        const response = await rawUpload(sut.origin, { head: post(JSON_KEY + CHUNKED), piece: 1024, count: 64, chunked: true });
        expectRawError(response, 413, 'payload_too_large');
        expect(response.headers.connection).toBe('close');
      }
    }, 30_000);

    it.each([
      ['401 to a 1 MiB body sent without a key', `Content-Type: application/json\r\nContent-Length: ${MIB}\r\n`, false, 401, 'unauthorized'],
      ['413 to a declared 1 MiB body', `${JSON_KEY}Content-Length: ${MIB}\r\n`, false, 413, 'payload_too_large'],
      ['415 to a 64 KiB text body', `Authorization: ${AUTH.authorization}\r\nContent-Type: text/plain\r\n${CHUNKED}`, true, 415, 'unsupported_media_type'],
    ] as const)('reach a client that keeps writing: %s', async (_, headers, chunked, status, code) => {
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const response = await rawUpload(sut.origin, { head: post(headers), piece: 1024, count: chunked ? 64 : 1024, chunked });
        expectRawError(response, status, code);
      }
    }, 30_000);

    it.each([
      ['slowly, for 2 s at most', 5],
      ['at full speed, for 1 MiB at most', 0],
    ])('stop reading from a client that never stops writing, %s', async (_, pauseMs) => {
      const response = await rawUpload(sut.origin, { head: post(JSON_KEY + CHUNKED), piece: 1024, chunked: true, pauseMs, readWhileWriting: true });
      expectRawError(response, 413, 'payload_too_large');
      // Closed by the service (its lingering read lasts 2 s at most), long before this test would give up: generous
      // against a busy machine, and still far from a connection left open.
      expect(response.closedAfterMs).toBeLessThan(8_000);
    }, 10_000);
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
        // Not before the 10 s (a busy machine only makes it later), and by the service, not the client's 20 s deadline.
        expect(response.seconds).toBeGreaterThanOrEqual(9.5);
        expect(response.seconds).toBeLessThan(19);
      }
      // Closed by the 5 s idle timeout: not before it, and before the 10 s headers timeout would have closed it.
      expect(idle).toBeGreaterThanOrEqual(4.5);
      expect(idle).toBeLessThan(9.5);
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
      jest.spyOn(sut.app.get(PetStore), 'findPage').mockRejectedValue(new Error('SQLITE_CORRUPT: secret details at /var/lib'));
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

function expectRawError(response: RawResponse, status: number, code: ErrorCode): void {
  expect(response.status).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  expect(JSON.parse(response.body)).toEqual({ code, message: expect.any(String), status });
}
