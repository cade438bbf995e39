import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import sqlite3 from 'sqlite3';

const INSERT = (placeholders: string) => `INSERT INTO webhook_endpoints (url, secret, events, message_tag, created_at) VALUES (${placeholders})`;

/**
 * Registers a webhook endpoint for pet.created in a migrated database (`sqlite:<file>` or a PostgreSQL URL), as
 * `npm run webhooks -- add` would, but with the caller's secret, which its receiver verifies signatures with. Safe
 * beside a running service: on SQLite the statement waits its turn for the file's lock, as another process would.
 */
export async function registerWebhookEndpoint(databaseUrl: string, url: string, secret: string): Promise<void> {
  // The tag in its messages' webhook-ids, random as the command makes it.
  const values = [url, secret, 'pet.created', randomBytes(8).toString('hex'), Date.now()];
  if (databaseUrl.startsWith('sqlite:')) return sqliteRun(databaseUrl.slice('sqlite:'.length), INSERT('?, ?, ?, ?, ?'), values);
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(INSERT('$1, $2, $3, $4, $5'), values);
  } finally {
    await client.end();
  }
}

function sqliteRun(path: string, sql: string, params: unknown[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const database = new sqlite3.Database(path, sqlite3.OPEN_READWRITE, (openError) => {
      if (openError) return reject(openError);
      database.configure('busyTimeout', 10_000);
      database.run(sql, params, (error) => database.close(() => (error ? reject(error) : resolve())));
    });
  });
}
