// A client in a process of its own (an event loop the server does not share), as an outside client is: it writes its
// whole request, whatever the server answers meanwhile, and then reads until the server closes the connection.
// Usage: node upload-client.mjs '<JSON of UploadSpec, see raw-http.ts>'; prints {data, closedAfterMs} as JSON.
import { connect } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';

const { port, host, head, piece, count, chunked, pauseMs, readWhileWriting } = JSON.parse(process.argv[2]);
const encoded = chunked ? `${piece.toString(16)}\r\n${'x'.repeat(piece)}\r\n` : 'x'.repeat(piece);

// Half-open: a FIN from the server does not stop the writing, as it would not stop a client mid-upload.
const socket = connect({ port, host, allowHalfOpen: true });
let data = '';
socket.on('data', (chunk) => (data += chunk.toString('latin1')));
socket.on('error', () => undefined);
if (!readWhileWriting) socket.pause();
const closed = new Promise((resolve) => socket.once('close', resolve));
await new Promise((resolve) => socket.once('connect', resolve));
const started = Date.now();
socket.write(head);
for (let sent = 0; sent < (count ?? Infinity) && socket.writable; sent += 1) {
  const flushed = socket.write(encoded);
  if (pauseMs > 0) await delay(pauseMs);
  else if (!flushed) await Promise.race([new Promise((resolve) => socket.once('drain', resolve)), closed]);
}
if (chunked && socket.writable) socket.write('0\r\n\r\n');
socket.end();
socket.resume();
await closed;
process.stdout.write(JSON.stringify({ data, closedAfterMs: Date.now() - started }));
