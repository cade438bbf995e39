import { BadRequestException, HttpException, NotFoundException } from '@nestjs/common';
import { ERROR_MESSAGE_MAX_LENGTH } from '@petstore/contract';
import { ApiException } from '../errors/api-exception';
import { toErrorResponse } from './error-response';

describe(toErrorResponse.name, () => {
  it('keeps an ApiException as it is, with its headers', () => {
    const response = toErrorResponse(new ApiException('method_not_allowed', 'Use GET.', { allow: 'GET' }));
    expect(response).toEqual({
      body: { code: 'method_not_allowed', message: 'Use GET.', status: 405 },
      headers: { allow: 'GET' },
      unexpected: false,
    });
  });

  it.each([
    [new HttpException('Unsupported Media Type: text/plain', 415), 'unsupported_media_type', 'Content-Type must be application/json.'],
    [new HttpException('Request body is too large', 413), 'payload_too_large', 'Request body must not exceed 16384 bytes.'],
    [new BadRequestException('bad thing'), 'bad_request', 'bad thing.'],
    [new NotFoundException('Cannot GET /x'), 'not_found', 'Cannot GET /x.'],
  ])('maps a framework HttpException by its status (%s)', (error, code, message) => {
    expect(toErrorResponse(error).body).toEqual({ code, message, status: error.getStatus() });
  });

  it('cuts a message longer than the documented bound short, without splitting a character', () => {
    const long = `${'a'.repeat(ERROR_MESSAGE_MAX_LENGTH - 2)}${'🐈'.repeat(10)}`;
    const { message } = toErrorResponse(new ApiException('validation_failed', long)).body;
    expect(Array.from(message)).toHaveLength(ERROR_MESSAGE_MAX_LENGTH);
    expect(message).toBe(`${'a'.repeat(ERROR_MESSAGE_MAX_LENGTH - 2)}🐈…`);
  });

  it('keeps a message of exactly the bound as it is, counting code points', () => {
    const exact = '🐈'.repeat(ERROR_MESSAGE_MAX_LENGTH);
    expect(toErrorResponse(new ApiException('validation_failed', exact)).body.message).toBe(exact);
  });

  it('maps a Fastify error raised outside Nest by its statusCode', () => {
    const error = Object.assign(new Error('too big'), { name: 'FastifyError', statusCode: 413, code: 'FST_ERR_CTP_BODY_TOO_LARGE' });
    expect(toErrorResponse(error).body.code).toBe('payload_too_large');
  });

  it.each([
    ['an Error', new Error('SQLITE_CORRUPT: database disk image is malformed at /secret/path')],
    ['a string', 'boom'],
    ['null', null],
    ['a 5xx HttpException', new HttpException('upstream detail', 502)],
    ['an unmapped status', new HttpException('teapot', 418)],
  ])('hides %s behind 500 internal_error and marks it unexpected', (_label, thrown) => {
    const response = toErrorResponse(thrown);
    expect(response.body).toEqual({ code: 'internal_error', message: expect.any(String), status: 500 });
    expect(response.body.message).not.toMatch(/SQLITE|secret|upstream|teapot|boom/);
    expect(response.unexpected).toBe(true);
  });
});
