import { createServer, type Server } from 'node:http';
import type { Registry } from 'prom-client';

/**
 * `GET /metrics` in Prometheus' text format, on a listener of its own: bound to an operator's network (127.0.0.1 by
 * default), never the API's port, so it needs no key and adds nothing to the API's surface.
 */
export async function listenForScrapes(registry: Registry, port: number, host: string): Promise<Server> {
  const server = createServer((request, response) => {
    const path = request.url?.split('?', 1)[0];
    if (path !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found: metrics are at /metrics\n');
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end('Use GET\n');
      return;
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' }).end(request.method === 'HEAD' ? undefined : text),
      (error: Error) => response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end(`Metrics could not be collected: ${error.message}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}

