import { connect, type Socket } from 'node:net';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function parseResponse(data: string): RawResponse {
  const [head, ...rest] = data.split('\r\n\r\n');
  const [statusLine, ...lines] = head.split('\r\n');
  const status = Number(statusLine.split(' ')[1]);
  if (!status) throw new Error(`No HTTP response: ${JSON.stringify(data.slice(0, 200))}`);
  const headers = Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  );
  return { status, headers, body: rest.join('\r\n\r\n') };
}

function connectTo(origin: string): Socket {
  const { hostname, port } = new URL(origin);
  return connect(Number(port), hostname);
}

/**
 * Sends bytes exactly as given and reads the response until the server closes or `timeoutMs` passes.
 * For requests that fetch() refuses to make: duplicate headers, missing Host, smuggling shapes.
 */
export function rawRequest(origin: string, payload: string, timeoutMs = 3000): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connectTo(origin);
    let data = '';
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      try {
        resolve(parseResponse(data));
      } catch (error) {
        reject(error);
      }
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

export interface Upload {
  /** The request head, blank line included. */
  head: string;
  /** Bytes of body in each piece written. */
  piece: number;
  /** Pieces to write; endless when absent. */
  count?: number;
  /** Frame the pieces as chunks. */
  chunked?: boolean;
  /** Pause between pieces; otherwise each is written as soon as the socket takes it. */
  pauseMs?: number;
  /**
   * Read the answer while still writing; otherwise, as most clients do, only once the whole request is sent, so that
   * an answer discarded by the server's reset is lost.
   */
  readWhileWriting?: boolean;
}

/**
 * Uploads from a process of its own (support/upload-client.mjs): a client sharing the server's event loop reads in
 * step with it, unlike an outside client. `closedAfterMs` runs from the first byte sent to the close.
 */
export async function rawUpload(origin: string, upload: Upload): Promise<RawResponse & { closedAfterMs: number }> {
  const { hostname, port } = new URL(origin);
  const spec = JSON.stringify({ ...upload, host: hostname, port: Number(port) });
  const { stdout } = await run(process.execPath, [join(__dirname, 'upload-client.mjs'), spec], { timeout: 20_000 });
  const { data, closedAfterMs } = JSON.parse(stdout) as { data: string; closedAfterMs: number };
  return { ...parseResponse(data), closedAfterMs };
}
