import { Command, InvalidArgumentError, Option } from 'commander';
import { withDatabase } from './admin-database';
import { nothingDone, optionParser, printListing, runAdminCommand, shownTime } from './admin-command';
import { loadWebhookConfig } from '../app/config/app-config';
import { checkWebhookUrl, resolvePermittedAddresses, WebhookAddressError } from '../app/webhooks/address-policy';
import { WebhookAttemptEntity } from '../app/webhooks/webhook-attempt.entity';
import { WebhookEndpointEntity } from '../app/webhooks/webhook-endpoint.entity';
import { DEFAULT_DELIVERIES_LIMIT, WebhookEndpointStore } from '../app/webhooks/webhook-endpoint.store';
import { messageId, parseEventTypes, WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../app/webhooks/webhook-event';

// Webhook endpoint administration on the configured database. The service reads the endpoints when it delivers;
// nothing needs restarting. Built beside main.js so that it runs wherever the service is deployed.

const MAX_DELIVERIES_LIMIT = 1000;

const withStore = <T>(work: (store: WebhookEndpointStore) => Promise<T>): Promise<T> =>
  withDatabase([WebhookEndpointEntity, WebhookAttemptEntity], (dataSource) => work(new WebhookEndpointStore(dataSource)));

const eventTypes = optionParser(parseEventTypes);

function endpointId(value: string): number {
  if (!/^[1-9]\d{0,15}$/.test(value) || !Number.isSafeInteger(Number(value))) throw new InvalidArgumentError('must be an endpoint id, as `list` shows it.');
  return Number(value);
}

function deliveriesLimit(value: string): number {
  const limit = /^[1-9]\d{0,3}$/.test(value) ? Number(value) : NaN;
  if (!(limit <= MAX_DELIVERIES_LIMIT)) throw new InvalidArgumentError(`must be a whole number from 1 to ${MAX_DELIVERIES_LIMIT}.`);
  return limit;
}

/** The URL as it will be called, refused as deliveries would refuse it; never quoted, as it may hold a password. */
async function checkedUrl(command: Command, raw: string): Promise<string> {
  const config = loadWebhookConfig();
  try {
    const url = checkWebhookUrl(raw, { allowInsecure: config.allowInsecure });
    if (!config.allowPrivateAddresses) await resolvePermittedAddresses(url.hostname, false).catch(lookupFailed(url.hostname));
    return url.href;
  } catch (error) {
    if (error instanceof WebhookAddressError) command.error(`error: ${error.message}.`);
    throw error;
  }
}

/** A resolver that failed says nothing about the URL: the command failed, not its line. */
const lookupFailed = (hostname: string) => (error: unknown) => {
  if (error instanceof WebhookAddressError) throw error;
  const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  throw new Error(`could not look up the addresses of "${hostname}" (${code}); nothing was stored, try again.`);
};

/** What `list` shows of an endpoint: never its secret. */
const listed = (records: WebhookEndpointEntity[]) => records.map(({ id, url, events, createdAt }) => ({ id, url, events, createdAt }));

/** What `deliveries` shows of an attempt, the message named by its `webhook-id`. */
const shown = ({ endpoint, attempts }: { endpoint: WebhookEndpointEntity; attempts: WebhookAttemptEntity[] }) =>
  attempts.map(({ attemptedAt, messageId: message, attempt, outcome, statusCode, error, durationMs }) => ({
    attemptedAt,
    messageId: messageId(endpoint.messageTag, message),
    attempt,
    outcome,
    statusCode,
    error,
    durationMs,
  }));

const program = new Command('webhooks')
  .description('Register, list and remove the endpoints that receive webhooks, and show their delivery attempts.')
  .addHelpText(
    'after',
    [
      '',
      `Events: ${WEBHOOK_EVENT_TYPES.join(', ')}.`,
      'Environment: DATABASE_URL, as the service reads it; for `add`, WEBHOOK_ALLOW_INSECURE=true',
      'accepts http:// URLs and WEBHOOK_ALLOW_PRIVATE_ADDRESSES=true hosts on loopback, private or',
      'link-local addresses (both false by default, as for deliveries).',
      'Exit codes: 0 done, 1 nothing done (no such endpoint, or the resolver or the database',
      'failed), 2 usage error (a refused URL or event type included).',
    ].join('\n'),
  )
  // Set before the subcommands are made, so that they inherit it: a mistaken command line exits 2, not 1.
  .exitOverride()
  .showHelpAfterError('(add --help for usage)');

program
  .command('add')
  .description('register an endpoint; its signing secret is printed once')
  .requiredOption('--url <url>', 'where the events are POSTed: https://, and a host on a public address')
  .addOption(
    new Option('--events <types>', `what it receives, comma-separated: ${WEBHOOK_EVENT_TYPES.join(', ')}`)
      .argParser(eventTypes)
      .default([...WEBHOOK_EVENT_TYPES], WEBHOOK_EVENT_TYPES.join(',')),
  )
  .option('--json', 'print {"id", "secret"} as JSON instead of the secret alone')
  .action(async (options: { url: string; events: WebhookEventType[]; json?: boolean }, command: Command) => {
    const url = await checkedUrl(command, options.url);
    const record = await withStore((store) => store.add(url, options.events));
    process.stderr.write(`Endpoint ${record.id} ${record.url} added for ${record.events.join(', ')}. Its signing secret is shown once:\n`);
    process.stdout.write(options.json ? `${JSON.stringify({ id: record.id, secret: record.secret })}\n` : `${record.secret}\n`);
  });

program
  .command('list')
  .description('list the endpoints (never their secrets)')
  .option('--json', 'print JSON')
  .action(async ({ json }: { json?: boolean }) => {
    const rows = listed(await withStore((store) => store.list()));
    printListing(rows, json, ['ID', 'URL', 'EVENTS', 'CREATED'], (r) => [r.id, r.url, r.events.join(','), shownTime(r.createdAt)]);
  });

program
  .command('remove')
  .description('remove an endpoint, with the messages still to be delivered to it and its attempts')
  .argument('<id>', 'the endpoint, as `list` shows it', endpointId)
  .action(async (id: number) => {
    const removed = await withStore((store) => store.remove(id));
    if (!removed) return nothingDone(`No endpoint has id ${id}.`);
    process.stderr.write(`Endpoint ${removed.id} ${removed.url} removed, with its pending messages and its delivery attempts.\n`);
  });

program
  .command('deliveries')
  .description("show an endpoint's latest delivery attempts, newest first")
  .argument('<id>', 'the endpoint, as `list` shows it', endpointId)
  .option('--limit <n>', `how many attempts, at most ${MAX_DELIVERIES_LIMIT}`, deliveriesLimit, DEFAULT_DELIVERIES_LIMIT)
  .option('--json', 'print JSON')
  .action(async (id: number, { limit, json }: { limit: number; json?: boolean }) => {
    const deliveries = await withStore((store) => store.deliveries(id, limit));
    if (!deliveries) return nothingDone(`No endpoint has id ${id}.`);
    const header = ['ATTEMPTED', 'MESSAGE', 'ATTEMPT', 'OUTCOME', 'STATUS', 'ERROR', 'DURATION'];
    printListing(shown(deliveries), json, header, (r) => [
      shownTime(r.attemptedAt),
      r.messageId,
      r.attempt,
      r.outcome,
      r.statusCode ?? '-',
      r.error ?? '-',
      `${r.durationMs} ms`,
    ]);
  });

runAdminCommand(program);
