// The generator's own ceiling: node:http answering every request with the same small JSON and nothing else (no
// routing, no key, no database), so that wrk's figures against it bound what wrk can measure on this machine.
// Environment: PORT, HOST.
import { createServer } from 'node:http';

const BODY = JSON.stringify({ id: 1, name: 'Pet 1', categoryId: 1, status: 'available' });
const HEADERS = { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(BODY) };

const server = createServer((req, res) => {
  // A POST's body is read to its end, as the servers under test read theirs.
  req.resume();
  req.on('end', () => {
    res.writeHead(200, HEADERS);
    res.end(BODY);
  });
});
server.keepAliveTimeout = 5_000;
server.listen(Number(process.env.PORT ?? 3002), process.env.HOST ?? '127.0.0.1');

for (const signal of ['SIGTERM', 'SIGINT']) {
  process.once(signal, () => {
    server.close(() => process.exit(0));
    server.closeIdleConnections();
  });
}
