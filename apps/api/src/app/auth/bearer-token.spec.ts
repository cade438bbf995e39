import { bearerToken } from './bearer-token';

describe(bearerToken.name, () => {
  const headers = (...values: string[]) => values.flatMap((value) => ['Authorization', value]);

  it.each([
    ['Bearer abc.DEF-123_~+/=', 'abc.DEF-123_~+/='],
    ['bearer token', 'token'],
    ['BEARER   token', 'token'],
    ['Bearer token  ', 'token'],
  ])('reads %j', (value, token) => expect(bearerToken(headers(value))).toBe(token));

  it.each(['', 'Bearer', 'Bearer ', 'Basic dXNlcg==', 'token', 'Bearer a b', 'Bearer tok\u00e9n', 'Bearertoken', 'XBearer token'])(
    'refuses %j',
    (value) => expect(bearerToken(headers(value))).toBeUndefined(),
  );

  it('refuses a repeated Authorization header, whatever its case', () => {
    expect(bearerToken(['Authorization', 'Bearer a', 'authorization', 'Bearer a'])).toBeUndefined();
  });

  it('ignores other headers', () => {
    expect(bearerToken(['Host', 'x', 'X-Authorization', 'Bearer b', 'authorization', 'Bearer a'])).toBe('a');
    expect(bearerToken(['Host', 'x'])).toBeUndefined();
  });
});
