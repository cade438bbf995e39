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

/**
 * Runs the CLI in-process against a real `PetstoreClient` whose `fetch` answers with `responses` in order
 * (an Error is thrown as a network failure), recording what was sent and what was written.
 */
export async function runCli(
  argv: string[],
  { env = { PETSTORE_API_KEY: KEY }, responses = [] }: { env?: Record<string, string>; responses?: (Response | Error)[] } = {},
) {
  let stdout = '';
  let stderr = '';
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
    return next;
  };
  const code = await run(
    argv,
    { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), env },
    (options) => {
      clientOptions.push(options);
      // No retries: each test lists exactly the responses its requests get.
      return new PetstoreClient({ ...options, fetch, maxRetries: 0 });
    },
  );
  return { code, stdout, stderr, sent, clientOptions };
}
