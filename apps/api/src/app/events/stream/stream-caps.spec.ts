import { toErrorResponse } from '../../http/error-response';
import { StreamCaps } from './stream-caps';

const refusal = (work: () => unknown) => {
  try {
    work();
  } catch (error) {
    const { body, headers } = toErrorResponse(error);
    return { status: body.status, body, headers };
  }
  throw new Error('not refused');
};

describe(StreamCaps.name, () => {
  it('admits up to the cap per key, then refuses with 429 and Retry-After, saying the cap', () => {
    const sut = new StreamCaps({ perKey: 2, perInstance: 10 });
    sut.admit('key:1');
    sut.admit('key:1');
    expect(refusal(() => sut.admit('key:1'))).toEqual({
      status: 429,
      body: { code: 'rate_limited', message: 'Too many event streams open for this API key: at most 2 at once. Close one, or retry in 5 s.', status: 429 },
      headers: expect.objectContaining({ 'retry-after': '5' }),
    });
    sut.admit('key:2');
    expect(sut.size).toBe(3);
  });

  it('admits up to the cap of the instance, whatever the keys', () => {
    const sut = new StreamCaps({ perKey: 5, perInstance: 2 });
    sut.admit('key:1');
    sut.admit('key:2');
    expect(refusal(() => sut.admit('key:3')).body.message).toBe(
      'This instance has as many event streams open as it takes (2); retry in 5 s, perhaps on another instance.',
    );
  });

  it('counts what a key still holds when one of its streams is let go', () => {
    const sut = new StreamCaps({ perKey: 2, perInstance: 10 });
    const first = sut.admit('key:1');
    sut.admit('key:1');
    first();
    sut.admit('key:1');
    expect(refusal(() => sut.admit('key:1')).status).toBe(429);
  });

  it('counts a stream let go once, however often it is let go', () => {
    const sut = new StreamCaps({ perKey: 1, perInstance: 1 });
    const release = sut.admit('key:1');
    release();
    release();
    expect(sut.size).toBe(0);
    const again = sut.admit('key:1');
    expect(refusal(() => sut.admit('key:2')).status).toBe(429);
    again();
    sut.admit('key:2');
    expect(sut.size).toBe(1);
  });
});
