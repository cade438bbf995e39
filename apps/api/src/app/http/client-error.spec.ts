import { overflowOf } from './client-error';

describe('overflowOf', () => {
  const refusal = (packet: string, bytesParsed = packet.length) => overflowOf(Buffer.from(packet, 'latin1'), bytesParsed)[1];

  it('takes a line that has not ended in the bytes being parsed for the request target', () => {
    expect(refusal(`GET /v1/pets?pad=${'x'.repeat(60_000)}`)).toBe('uri_too_long');
    // A later piece of the same URL: no line end, and no request line at its start.
    expect(refusal('x'.repeat(60_000))).toBe('uri_too_long');
  });

  it('takes a request line longer than any URL accepted for the request target, whatever follows it', () => {
    expect(refusal(`GET /v1/pets?pad=${'x'.repeat(30_000)} HTTP/1.1\r\nHost: x\r\nX-Pad: ${'y'.repeat(20_000)}`)).toBe('uri_too_long');
  });

  it('takes an overflow after a short request line for the header lines', () => {
    expect(refusal(`GET /v1/pets HTTP/1.1\r\nHost: x\r\nX-Pad: ${'y'.repeat(60_000)}`)).toBe('header_too_large');
    expect(refusal(`X-1: a\r\n${'X-2: b\r\n'.repeat(8_000)}`)).toBe('header_too_large');
  });

  it('looks only at the bytes parsed before the overflow', () => {
    const packet = `GET /v1/pets?pad=${'x'.repeat(50_000)} HTTP/1.1\r\nHost: x\r\n`;
    expect(refusal(packet, 45_000)).toBe('uri_too_long');
  });

  it('says the head is too large when Node gave no bytes to look at', () => {
    expect(overflowOf(undefined, undefined)[1]).toBe('header_too_large');
  });
});
