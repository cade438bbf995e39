import { randomBytes } from 'node:crypto';
import { AbortError, type ConnectionChange, type StreamedEvent } from '@petstore/client';
import { EVENT_POSITION_RULE } from '@petstore/contract';
import type { Command } from 'commander';
import { Webhook } from 'standardwebhooks';
import type { CliIo, CommandContext } from '../context';
import { checked, wholeNumber } from '../parsers';
import { usageError } from '../usage';

interface ListenOptions {
  after?: string;
  json?: boolean;
  forwardTo?: string;
  secret?: string;
}

/** Standard Webhooks' symmetric secret: "whsec_" and the base64 of 24 to 64 bytes (192 to 512 bits). */
const SECRET = /^whsec_(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const SECRET_BYTES = { min: 24, max: 64 };
/** The service's own bound for one webhook attempt (WEBHOOK_TIMEOUT_MS's default). */
const FORWARD_TIMEOUT_MS = 10_000;

/** `petstore events listen`: the event stream at the terminal, or forwarded to a receiver on this machine. */
export function registerEventsCommands(program: Command, { io, connect }: CommandContext): void {
  const events = program.command('events').description('follow the events of the store as they happen');

  events
    .command('listen')
    .description('print each event as it happens, every pet created on any instance, until Ctrl-C')
    .option('--after <id>', 'start after this event id (one printed before): what came since is sent first; events are kept 7 days')
    .option('--json', 'print one JSON object per line: the webhook body and the event id')
    .option('--forward-to <url>', 'also POST each event to this address, signed as webhooks are (Standard Webhooks), e.g. http://localhost:8080/hooks')
    .option('--secret <secret>', 'the signing secret for --forward-to, whsec_... (default: $PETSTORE_FORWARD_SECRET, else a new one, printed at start)')
    .addHelpText(
      'after',
      '\nThe stream resumes by itself after a drop (an instance restarting, the network), after the last\n' +
        'event printed: none is missed, none printed twice. Notices go to stderr, so stdout holds only events.\n' +
        'With --forward-to, each event is POSTed once, in order, as the service would deliver it; a receiver\n' +
        'that failed one can be sent it again with --after <the id before it>.',
    )
    .action(async (options: ListenOptions, command: Command) => {
      const after = checked<number>(command, '--after', options.after, EVENT_POSITION_RULE, wholeNumber);
      const forward = options.forwardTo === undefined ? undefined : forwarder(command, io, options.forwardTo, options.secret ?? io.env.PETSTORE_FORWARD_SECRET);
      const client = connect(command, 'streamEvents');
      let last = after;
      const onConnectionChange = (change: ConnectionChange) => io.stderr(connectionNotice(change, last));
      try {
        for await (const event of client.events({ after }, { signal: io.signal, onConnectionChange })) {
          last = event.id;
          io.stdout(options.json ? `${JSON.stringify(event)}\n` : `${eventLine(event)}\n`);
          await forward?.(event);
        }
      } catch (error) {
        // Ctrl-C: the end the command waits for.
        if (error instanceof AbortError && io.signal?.aborted) return;
        throw error;
      }
    });
}

/** One event for a person: its id, type and time, then the pet. */
export const eventLine = ({ id, type, timestamp, data }: StreamedEvent): string =>
  `${id}  ${type}  ${timestamp}  pet ${data.id} ${JSON.stringify(data.name)}, category ${data.categoryId}, ${data.status}`;

function connectionNotice(change: ConnectionChange, last: number | undefined): string {
  if (change.state === 'open') return last === undefined ? 'Listening for events (Ctrl-C to stop).\n' : `Listening for events after ${last} (Ctrl-C to stop).\n`;
  return `Connection lost (${change.error.message}); trying again in ${(change.delayMs / 1000).toFixed(1)} s.\n`;
}

/**
 * POSTs each event to `url` as the service delivers a webhook: the same body, `webhook-id`, `webhook-timestamp` and
 * `webhook-signature` made with `secret`, so that a receiver verifies it with the library it will use in production.
 */
function forwarder(command: Command, io: CliIo, url: string, given: string | undefined): (event: StreamedEvent) => Promise<void> {
  if (!/^https?:\/\//.test(url) || !URL.canParse(url)) usageError(command, `--forward-to must be an http or https URL such as http://localhost:8080/hooks (got ${url})`);
  const secret = given ?? `whsec_${randomBytes(32).toString('base64')}`;
  const bytes = SECRET.test(secret) ? Buffer.from(secret.slice('whsec_'.length), 'base64').length : 0;
  if (bytes < SECRET_BYTES.min || bytes > SECRET_BYTES.max) {
    usageError(command, `the signing secret must be "whsec_" followed by the base64 of ${SECRET_BYTES.min} to ${SECRET_BYTES.max} bytes, as the service's webhook secrets are`);
  }
  if (given === undefined) {
    io.stderr(`Forwarding to ${url}. Its signing secret (Standard Webhooks), shown once: ${secret}\n` + 'Pass it with --secret or PETSTORE_FORWARD_SECRET to keep it across runs.\n');
  } else {
    io.stderr(`Forwarding to ${url}, signed with the secret given.\n`);
  }
  const signer = new Webhook(secret);
  return async ({ id, ...body }) => {
    const payload = JSON.stringify(body);
    const messageId = `msg_stream_${id}`;
    const timestamp = new Date();
    const started = performance.now();
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'webhook-id': messageId,
          'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
          'webhook-signature': signer.sign(messageId, timestamp, payload),
        },
        body: payload,
        signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
      });
      await response.arrayBuffer();
      const took = `${Math.round(performance.now() - started)} ms`;
      io.stderr(response.ok ? `  -> ${id} forwarded: ${response.status} in ${took}\n` : `  -> ${id} refused by the receiver: ${response.status} in ${took}; send it again with --after ${id - 1}\n`);
    } catch (error) {
      // fetch's own message is "fetch failed"; its cause says why (ECONNREFUSED, a timeout).
      const { message, cause } = error as { message: string; cause?: { message?: string; code?: string } };
      const reason = cause?.message || cause?.code || message;
      io.stderr(`  -> ${id} not delivered: ${reason}; send it again with --after ${id - 1}\n`);
    }
  };
}
