import { type SseId, SseParser, type SseMessage } from './sse-parser';

/** Every message of `pieces` fed in order. */
const parse = (...pieces: string[]): Array<SseMessage | SseId> => {
  const parser = new SseParser();
  return pieces.flatMap((piece) => parser.push(piece));
};

describe(SseParser.name, () => {
  it('dispatches a message at a blank line, with its id, event and data', () => {
    expect(parse('id: 7\nevent: pet.created\ndata: {"a":1}\n\n')).toEqual([{ id: '7', event: 'pet.created', data: '{"a":1}' }]);
  });

  it('takes a message split anywhere, one character at a time', () => {
    const text = 'id: 7\r\nevent: pet.created\r\ndata: {"a":1}\r\n\r\nid: 8\rdata: x\r\r';
    expect(parse(...text.split(''))).toEqual([
      { id: '7', event: 'pet.created', data: '{"a":1}' },
      { id: '8', event: 'message', data: 'x' },
    ]);
  });

  it('ends lines at CRLF, LF or CR alike, a CRLF split between two pieces being one line end', () => {
    expect(parse('data: a\r', '\ndata: b\r', '\r')).toEqual([{ id: '', event: 'message', data: 'a\nb' }]);
    expect(parse('data: a\n\ndata: b\r\rdata: c\r\n\r\n')).toEqual(['a', 'b', 'c'].map((data) => ({ id: '', event: 'message', data })));
  });

  it('takes a CRLF inside one piece as one line end, and an LF after a line ended by LF or by a CR mid-piece as a blank line', () => {
    expect(parse('data: a\r\ndata: b\r\n\r\n')).toEqual([{ id: '', event: 'message', data: 'a\nb' }]);
    expect(parse('data: a\n', '\n')).toEqual([{ id: '', event: 'message', data: 'a' }]);
    expect(parse('data: a\rdata: b\n', '\n')).toEqual([{ id: '', event: 'message', data: 'a\nb' }]);
  });

  it('joins data lines with line feeds and drops one space after the colon only', () => {
    expect(parse('data:  two spaces\ndata:none\ndata\n\n')).toEqual([{ id: '', event: 'message', data: ' two spaces\nnone\n' }]);
  });

  it('skips comments, unknown fields and messages without data, keeping an id for the next one', () => {
    expect(parse(': keep-alive\n\nid: 3\nevent: ignored\n\nretry: 10\nfoo: bar\ndata: d\n\n')).toEqual([{ lastEventId: '3' }, { id: '3', event: 'message', data: 'd' }]);
  });

  it('keeps the last id across messages, and ignores an id with a NUL in it', () => {
    expect(parse('id: 1\ndata: a\n\ndata: b\n\nid: 2\0\ndata: c\n\n')).toEqual([
      { id: '1', event: 'message', data: 'a' },
      { id: '1', event: 'message', data: 'b' },
      { id: '1', event: 'message', data: 'c' },
    ]);
  });

  it('tells a block that set the last event ID without data, once the block ends, and none for other empty blocks', () => {
    const parser = new SseParser();
    expect(parser.push('id: 40\n')).toEqual([]);
    expect(parser.push('\n')).toEqual([{ lastEventId: '40' }]);
    expect(parser.push('event: x\n\n: comment\n\n')).toEqual([]);
    expect(parser.push('id: 41\ndata: x\n\n')).toEqual([{ id: '41', event: 'message', data: 'x' }]);
  });

  it('resets the event type after each message', () => {
    expect(parse('event: reset\ndata: {"oldest":4}\n\ndata: after\n\n').map((message) => ('event' in message ? message.event : message.lastEventId))).toEqual(['reset', 'message']);
  });

  it('drops a byte order mark opening the stream, and no other', () => {
    expect(parse('\uFEFF', 'data: a\n\n', '\uFEFFdata: b\n\n')).toEqual([{ id: '', event: 'message', data: 'a' }]);
    expect(parse('\uFEFFdata: a\n\n')).toEqual([{ id: '', event: 'message', data: 'a' }]);
  });

  it('dispatches nothing for an unfinished message, and an empty piece changes nothing', () => {
    const parser = new SseParser();
    expect(parser.push('data: a\r')).toEqual([]);
    expect(parser.push('')).toEqual([]);
    expect(parser.push('\n')).toEqual([]);
    expect(parser.push('\n')).toEqual([{ id: '', event: 'message', data: 'a' }]);
  });
});
