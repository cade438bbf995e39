import { toErrorResponse } from '../../http/error-response';
import { resumePosition } from './resume-position';

const refusal = (rawHeaders: string[], after: unknown) => {
  try {
    resumePosition(rawHeaders, after);
  } catch (error) {
    return toErrorResponse(error).body;
  }
  throw new Error('not refused');
};

describe(resumePosition.name, () => {
  it('resumes after the Last-Event-ID header, else the query parameter `after`, else from the next event', () => {
    expect(resumePosition(['Last-Event-ID', '42'], undefined)).toBe(42);
    expect(resumePosition(['last-event-id', '0'], '7')).toBe(0);
    expect(resumePosition(['Accept', 'text/event-stream'], '7')).toBe(7);
    expect(resumePosition([], undefined)).toBeUndefined();
    expect(resumePosition([], String(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
  });

  it.each([['-1'], ['1.5'], ['1e3'], ['01'], [' 1'], ['0x10'], [''], ['9007199254740992'], ['12345678901234567']])(
    'refuses %j as an event id, in either place, saying which',
    (value) => {
      expect(refusal(['Last-Event-ID', value], undefined)).toEqual({
        code: 'validation_failed',
        message: 'The Last-Event-ID header is not an event id: an event id is a whole number from 0 to 9007199254740991, the id of an event a stream sent.',
        status: 400,
      });
      expect(refusal([], value).message).toBe(
        'The query parameter `after` is not an event id: an event id is a whole number from 0 to 9007199254740991, the id of an event a stream sent.',
      );
    },
  );

  it('refuses either sent twice, even when the header would win', () => {
    expect(refusal(['Last-Event-ID', '1', 'Last-Event-ID', '2'], undefined).message).toMatch(/^The Last-Event-ID header was sent more than once: /);
    expect(refusal([], ['1', '2']).message).toMatch(/^The query parameter `after` was sent more than once: /);
  });
});
