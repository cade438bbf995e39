import type { ErrorCode } from '@petstore/contract';

/** Asserts the interface's Error object: JSON, exactly {code, message, status}, status equal to the HTTP status. */
export async function expectError(response: Response, status: number, code: ErrorCode): Promise<string> {
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const body = (await response.json()) as Record<string, unknown>;
  expect({ status: response.status, code: body.code }).toEqual({ status, code });
  expect(Object.keys(body).sort()).toEqual(['code', 'message', 'status']);
  expect(body.status).toBe(status);
  expect(typeof body.message).toBe('string');
  return body.message as string;
}
