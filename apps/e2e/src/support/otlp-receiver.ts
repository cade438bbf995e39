import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** A span as OTLP/JSON carries it, its attributes flattened to plain values. */
export interface ReceivedSpan {
  scope: string;
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes: Record<string, unknown>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}

interface OtlpTraces {
  resourceSpans: Array<{
    scopeSpans: Array<{
      scope: { name: string };
      spans: Array<Omit<ReceivedSpan, 'scope' | 'attributes'> & { attributes?: Array<{ key: string; value: OtlpValue }> }>;
    }>;
  }>;
}

const plain = (value: OtlpValue): unknown =>
  value.stringValue ?? (value.intValue === undefined ? (value.boolValue ?? value.doubleValue) : Number(value.intValue));

/** An OTLP/HTTP collector that keeps every span it is sent as JSON (OTEL_EXPORTER_OTLP_PROTOCOL=http/json). */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];

  private constructor(private readonly server: Server) {}

  static async start(): Promise<OtlpReceiver> {
    const server = createServer();
    const receiver = new OtlpReceiver(server);
    server.on('request', (request, response) => {
      let body = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => (body += chunk));
      request.on('end', () => {
        if (request.url === '/v1/traces') receiver.keep(JSON.parse(body) as OtlpTraces);
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  /** The base address for OTEL_EXPORTER_OTLP_ENDPOINT. */
  get endpoint(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The spans of one trace, once `until` holds for them; throws after `timeoutMs`. */
  async trace(traceId: string, until: (spans: ReceivedSpan[]) => boolean, timeoutMs = 10_000): Promise<ReceivedSpan[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const spans = this.spans.filter((span) => span.traceId === traceId);
      if (until(spans)) return spans;
      if (Date.now() > deadline) throw new Error(`trace ${traceId} incomplete after ${timeoutMs} ms: ${JSON.stringify(spans)}`);
      await sleep(20);
    }
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private keep(traces: OtlpTraces): void {
    for (const { scopeSpans } of traces.resourceSpans) {
      for (const { scope, spans } of scopeSpans) {
        for (const { attributes = [], ...span } of spans) {
          this.spans.push({ ...span, scope: scope.name, attributes: Object.fromEntries(attributes.map(({ key, value }) => [key, plain(value)])) });
        }
      }
    }
  }
}
