import { type Scope, SCOPES } from '@petstore/contract';
import { Command, InvalidArgumentError } from 'commander';
import { withDatabase } from './admin-database';
import { nothingDone, optionParser, printListing, runAdminCommand, shownTime } from './admin-command';
import { API_KEY_NAME_MAX_CHARACTERS, ApiKeyEntity } from '../app/auth/api-key.entity';
import { ApiKeyStore } from '../app/auth/api-key.store';
import { parseScopes } from '../app/auth/scope-list';

// Key administration on the configured database. The service refuses a revoked or expired key within seconds on
// every instance; nothing needs restarting. Built beside main.js so that it runs wherever the service is deployed.
// Exit codes: 0 done, 1 nothing done (no such key, or the database failed), 2 a mistaken command line.

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const DEFAULT_GRACE_HOURS = 24;

const withStore = <T>(work: (store: ApiKeyStore) => Promise<T>): Promise<T> =>
  withDatabase([ApiKeyEntity], (dataSource) => work(new ApiKeyStore(dataSource.getRepository(ApiKeyEntity))));

/** A key's name as given, 1 to 100 characters: never cut short, since the name is how the key is found later. */
function keyName(value: string): string {
  const characters = [...value].length;
  if (characters === 0 || characters > API_KEY_NAME_MAX_CHARACTERS) {
    throw new InvalidArgumentError(`must be 1 to ${API_KEY_NAME_MAX_CHARACTERS} characters, not ${characters}.`);
  }
  return value;
}

function wholeDays(value: string): number {
  if (!/^[1-9]\d{0,5}$/.test(value)) throw new InvalidArgumentError('must be a whole number of days, 1 or more.');
  return Number(value);
}

/** Hours, fractions allowed (a test or a drill may want minutes), at most a year. */
function graceHours(value: string): number {
  const hours = /^\d{1,4}(\.\d{1,6})?$/.test(value) ? Number(value) : NaN;
  if (!(hours <= 8_760)) throw new InvalidArgumentError('must be a number of hours from 0 to 8760, e.g. 24 or 0.5.');
  return hours;
}

const scopes = optionParser(parseScopes);

/** Never a key's hash; which key it replaced and which replaced it. */
function listed(records: ApiKeyEntity[]) {
  const replacedBy = new Map(records.filter((r) => r.replacesId !== null).map((r) => [r.replacesId, r.id]));
  return records.map(({ keyHash: _hash, ...record }) => ({ ...record, replacedById: replacedBy.get(record.id) ?? null }));
}

/** Prints a new key: a sentence for the person on stderr, the key alone on stdout, for a script to capture. */
function printIssued(record: ApiKeyEntity, key: string, what: string): void {
  process.stderr.write(
    `Key ${record.id} "${record.name}" ${what}, scopes ${record.scopes.join(' ')}, expires ${shownTime(record.expiresAt)}. It is shown once:\n`,
  );
  process.stdout.write(`${key}\n`);
}

const program = new Command('keys')
  .description('Issue, list, rotate and revoke the API keys stored in the database.')
  .addHelpText('after', `\nScopes: ${SCOPES.join(', ')}.\nExit codes: 0 done, 1 nothing done, 2 usage error.`)
  // Set before the subcommands are made, so that they inherit it: a mistaken command line exits 2, not 1.
  .exitOverride()
  .showHelpAfterError('(add --help for usage)');

program
  .command('create')
  .description('issue a key; it is printed once and only its hash is stored')
  .requiredOption('--name <name>', `who or what the key is for, at most ${API_KEY_NAME_MAX_CHARACTERS} characters`, keyName)
  .option('--scopes <scopes>', `what it may do, comma-separated: ${SCOPES.join(', ')} (default: both)`, scopes)
  .option('--expires-in-days <days>', 'refuse the key after this many days', wholeDays)
  .action(async (options: { name: string; scopes?: Scope[]; expiresInDays?: number }) => {
    const expiresAt = options.expiresInDays === undefined ? null : Date.now() + options.expiresInDays * DAY_MS;
    const { key, record } = await withStore((store) => store.issue(options.name, expiresAt, options.scopes));
    printIssued(record, key, 'created');
  });

program
  .command('list')
  .description('list the stored keys (never the keys themselves), with their scopes and rotations')
  .option('--json', 'print JSON')
  .action(async ({ json }: { json?: boolean }) => {
    const rows = listed(await withStore((store) => store.list()));
    const id = (value: number | null) => (value === null ? '-' : String(value));
    const header = ['ID', 'KEY', 'NAME', 'SCOPES', 'CREATED', 'EXPIRES', 'REVOKED', 'LAST USED', 'REPLACES', 'REPLACED BY'];
    printListing(rows, json, header, (r) => [
      r.id,
      r.shownPart + '…',
      r.name,
      r.scopes.join(','),
      ...[r.createdAt, r.expiresAt, r.revokedAt, r.lastUsedAt].map(shownTime),
      id(r.replacesId),
      id(r.replacedById),
    ]);
  });

program
  .command('rotate')
  .description('issue a replacement with the same name and scopes; the old key keeps working for the grace period')
  .argument('<key>', 'the id, or the start of the key as `list` shows it')
  .option('--grace-hours <hours>', 'how long the old key keeps working', graceHours, DEFAULT_GRACE_HOURS)
  .action(async (which: string, { graceHours: hours }: { graceHours: number }) => {
    const rotation = await withStore((store) => store.rotate(which.replace(/…$/, ''), hours * HOUR_MS));
    if ('refused' in rotation) return nothingDone(rotation.refused);
    process.stderr.write(`Key ${rotation.replaced.id} now expires ${shownTime(rotation.replaced.expiresAt)}.\n`);
    printIssued(rotation.record, rotation.key, `replaces key ${rotation.replaced.id}`);
  });

program
  .command('revoke')
  .description('revoke a key by id or by the start shown in `list`')
  .argument('<key>', 'the id, or the start of the key as `list` shows it')
  .action(async (which: string) => {
    const revoked = await withStore((store) => store.revoke(which.replace(/…$/, '')));
    if (!revoked) return nothingDone(`No key matches "${which}".`);
    process.stderr.write(`Key ${revoked.id} "${revoked.name}" revoked at ${shownTime(revoked.revokedAt)}.\n`);
  });

runAdminCommand(program);
