import { Command, InvalidArgumentError } from 'commander';
import { DataSource } from 'typeorm';
import { ApiKeyEntity } from './app/auth/api-key.entity';
import { ApiKeyStore } from './app/auth/api-key.store';
import { loadDatabaseConfig } from './app/config/app-config';
import { dialectFor } from './app/database/data-source-options';

// Key administration on the configured database (DATABASE_URL, as the service reads it). The service refuses a
// revoked or expired key within seconds on every instance; nothing needs restarting. Built beside main.js
// (dist/apps/api/keys.js) so that it runs wherever the service is deployed, with the service's own migrations.

const DAY_MS = 86_400_000;

async function withStore<T>(work: (store: ApiKeyStore) => Promise<T>): Promise<T> {
  const dialect = dialectFor(loadDatabaseConfig());
  const dataSource = new DataSource(await dialect.options());
  await dataSource.initialize();
  try {
    // The service may never have run on this database: make sure the table exists.
    await dialect.migrate(dataSource);
    return await work(new ApiKeyStore(dataSource.getRepository(ApiKeyEntity)));
  } finally {
    await dataSource.destroy();
  }
}

const time = (ms: number | null) => (ms === null ? '-' : new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z'));

function positiveInteger(value: string): number {
  if (!/^[1-9]\d{0,5}$/.test(value)) throw new InvalidArgumentError('must be a whole number of days, 1 or more.');
  return Number(value);
}

const program = new Command('keys').description('Issue, list and revoke the API keys stored in the database.');

program
  .command('create')
  .description('issue a key; it is printed once and only its hash is stored')
  .requiredOption('--name <name>', 'who or what the key is for')
  .option('--expires-in-days <days>', 'refuse the key after this many days', positiveInteger)
  .action(async ({ name, expiresInDays }: { name: string; expiresInDays?: number }) => {
    const { key, record } = await withStore((store) =>
      store.issue(name.slice(0, 100), expiresInDays === undefined ? null : Date.now() + expiresInDays * DAY_MS),
    );
    process.stderr.write(`Key ${record.id} "${record.name}" created, expires ${time(record.expiresAt)}. It is shown once:\n`);
    process.stdout.write(`${key}\n`);
  });

program
  .command('list')
  .description('list the stored keys (never the keys themselves)')
  .option('--json', 'print JSON')
  .action(async ({ json }: { json?: boolean }) => {
    const records = await withStore((store) => store.list());
    const rows = records.map(({ keyHash: _hash, ...record }) => record);
    if (json) {
      process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
      return;
    }
    const lines = rows.map((r) =>
      [r.id, r.shownPart + '…', r.name, time(r.createdAt), time(r.expiresAt), time(r.revokedAt), time(r.lastUsedAt)].join('\t'),
    );
    process.stdout.write(['ID\tKEY\tNAME\tCREATED\tEXPIRES\tREVOKED\tLAST USED', ...lines].join('\n') + '\n');
  });

program
  .command('revoke')
  .description('revoke a key by id or by the start shown in `list`')
  .argument('<key>', 'the id, or the start of the key as `list` shows it')
  .action(async (which: string) => {
    const revoked = await withStore((store) => store.revoke(which.replace(/…$/, '')));
    if (!revoked) {
      process.stderr.write(`No key matches "${which}".\n`);
      process.exitCode = 1;
      return;
    }
    process.stderr.write(`Key ${revoked.id} "${revoked.name}" revoked at ${time(revoked.revokedAt)}.\n`);
  });

program.parseAsync().catch((error: unknown) => {
  process.stderr.write(`keys: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
