import {
  AbortError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  createApiError,
  ForbiddenError,
  NotFoundError,
  PayloadTooLargeError,
  PetstoreApiError,
  PetstoreError,
  RateLimitError,
  ServerError,
  TimeoutError,
  UnauthorizedError,
  UnprocessableEntityError,
  UnsupportedMediaTypeError,
} from './errors';

// What a consumer reads off an error: its class, its `name` (in logs and `catch` blocks that test it), its words.
describe('the errors the client throws', () => {
  const headers = new Headers({ 'x-request-id': 'req-1' });
  const body = (code: string) => JSON.stringify({ code, message: 'What went wrong.', status: 0 });

  it.each([
    [400, 'BadRequestError', BadRequestError],
    [401, 'UnauthorizedError', UnauthorizedError],
    [403, 'ForbiddenError', ForbiddenError],
    [404, 'NotFoundError', NotFoundError],
    [409, 'ConflictError', ConflictError],
    [413, 'PayloadTooLargeError', PayloadTooLargeError],
    [415, 'UnsupportedMediaTypeError', UnsupportedMediaTypeError],
    [422, 'UnprocessableEntityError', UnprocessableEntityError],
    [429, 'RateLimitError', RateLimitError],
    [500, 'ServerError', ServerError],
    [503, 'ServerError', ServerError],
    [418, 'PetstoreApiError', PetstoreApiError],
  ])('answers HTTP %i with a %s', (status, name, ErrorClass) => {
    const error = createApiError(status, body('some_code'), headers);
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toBeInstanceOf(PetstoreError);
    expect({ name: error.name, code: error.code, message: error.message, requestId: error.requestId }).toEqual({
      name,
      code: 'some_code',
      message: 'What went wrong.',
      requestId: 'req-1',
    });
  });

  it.each([
    ['not JSON', 'Bad Gateway'],
    ['a code that is not a string', JSON.stringify({ code: 5, message: 'What went wrong.' })],
    ['no message', JSON.stringify({ code: 'some_code' })],
    ['null', 'null'],
  ])('says when the body is not an Error object (%s)', (_kind, text) => {
    const error = createApiError(502, text, new Headers());
    expect({ code: error.code, message: error.message, body: error.body, requestId: error.requestId }).toEqual({
      code: 'unexpected_response',
      message: 'The service answered HTTP 502 without an Error body.',
      body: undefined,
      requestId: undefined,
    });
  });

  it('names the errors of the connection, the caller and the clock', () => {
    const errors = [new PetstoreError('x'), new ConnectionError('x'), new AbortError(), new TimeoutError(250)];
    expect(errors.map(({ name }) => name)).toEqual(['PetstoreError', 'ConnectionError', 'AbortError', 'TimeoutError']);
    expect([errors[2].message, errors[3].message]).toEqual(['The request was aborted.', 'No response within 250 ms.']);
  });
});
