import { PetstoreClient, type PetstoreClientOptions } from '@petstore/client';
import { run } from '../program';

/** The key the fake environment holds; no output may ever contain it. */
export const KEY = 'pk_unit_secret_5f0c2a9e71d4';

export interface Sent {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

/** A JSON response as the service would send it. */
export function reply(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

/** A response made for the request, e.g. a stream that ends when the request's signal aborts. */
export type Answer = Response | Error | ((init: RequestInit) => Response);

/** An event stream that sends `text`, then stays open until the request is aborted, as the service's does. */
export function streamReply(text: string, init: RequestInit): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(text));
      init.signal?.addEventListener('abort', () => controller.error(new DOMException('This operation was aborted', 'AbortError')));
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream; charset=utf-8' } });
}

/**
 * Runs the CLI in-process against a real `PetstoreClient` whose `fetch` answers with `responses` in order
 * (an Error is thrown as a network failure), recording what was sent and what was written. `stopWhen`: Ctrl-C, as
 * soon as what was written satisfies it.
 */
export async function runCli(
  argv: string[],
  {
    env = { PETSTORE_API_KEY: KEY },
    responses = [],
    stopWhen,
  }: { env?: Record<string, string>; responses?: Answer[]; stopWhen?: (written: { stdout: string; stderr: string }) => boolean } = {},
) {
  let stdout = '';
  let stderr = '';
  const ctrlC = new AbortController();
  const written = () => {
    if (stopWhen?.({ stdout, stderr })) ctrlC.abort();
  };
  const sent: Sent[] = [];
  const clientOptions: PetstoreClientOptions[] = [];
  const fetch: typeof globalThis.fetch = async (input, init = {}) => {
    sent.push({
      method: init.method ?? 'GET',
      url: String(input),
      headers: init.headers as Record<string, string>,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
    });
    const next = responses.shift();
    if (next instanceof Error) throw next;
    if (!next) throw new Error(`unexpected request ${init.method} ${String(input)}`);
    return typeof next === 'function' ? next(init) : next;
  };
  const code = await run(
    argv,
    {
      stdout: (text) => {
        stdout += text;
        written();
      },
      stderr: (text) => {
        stderr += text;
        written();
      },
      env,
      signal: ctrlC.signal,
    },
    (options) => {
      clientOptions.push(options);
      // No retries: each test lists exactly the responses its requests get.
      return new PetstoreClient({ ...options, fetch, maxRetries: 0 });
    },
  );
  return { code, stdout, stderr, sent, clientOptions };
}
