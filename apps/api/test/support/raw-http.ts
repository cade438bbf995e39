import { connect } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends bytes exactly as given and reads the response until the server closes or `timeoutMs` passes.
 * For requests that fetch() refuses to make: duplicate headers, missing Host, smuggling shapes.
 */
export function rawRequest(origin: string, payload: string, timeoutMs = 3000): Promise<RawResponse> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let data = '';
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      const [head, ...rest] = data.split('\r\n\r\n');
      const [statusLine, ...lines] = head.split('\r\n');
      const status = Number(statusLine.split(' ')[1]);
      if (!status) return reject(new Error(`No HTTP response: ${JSON.stringify(data.slice(0, 200))}`));
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      resolve({ status, headers, body: rest.join('\r\n\r\n') });
    };
    const timer = setTimeout(finish, timeoutMs);
    socket.on('data', (chunk) => {
      data += chunk.toString();
      // One response is enough: stop once its declared body has arrived.
      const match = /content-length: *(\d+)/i.exec(data);
      const end = data.indexOf('\r\n\r\n');
      if (match && end >= 0 && Buffer.byteLength(data.slice(end + 4)) >= Number(match[1])) finish();
    });
    socket.on('end', finish);
    socket.on('error', () => finish());
    socket.write(payload);
  });
}
