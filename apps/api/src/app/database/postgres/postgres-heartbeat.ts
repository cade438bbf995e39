import type { Client } from 'pg';
import { withDeadline } from '../../timing/deadline';
import type { Heartbeat } from '../database-watch';

/** pg's socket; pg-pool reaches it the same way to abandon a connection that cannot even say goodbye. */
const socketOf = (client: Client) => (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream;

/** Destroys a client's connection at once: `end()` would wait for a server that may never answer. */
export function destroyConnection(client: Client): void {
  socketOf(client)?.destroy();
}

/**
 * `SELECT 1` on a connection of its own, not the pool's (which may be full, or hung on a silent network path). A beat
 * not answered by its deadline destroys the connection, so that the next beat connects afresh instead of waiting on
 * one that may never fail by itself.
 */
export class PostgresHeartbeat implements Heartbeat {
  private client?: Promise<Client>;

  constructor(private readonly newClient: () => Client) {}

  async beat(deadlineMs: number): Promise<void> {
    const connected = (this.client ??= this.connect());
    try {
      await withDeadline(
        connected.then((client) => client.query('SELECT 1')),
        deadlineMs,
        () => new Error(`no answer to a heartbeat within ${deadlineMs} ms`),
      );
    } catch (error) {
      this.drop(connected);
      throw error;
    }
  }

  stop(): void {
    if (this.client) this.drop(this.client);
  }

  private async connect(): Promise<Client> {
    const client = this.newClient();
    // A connection that fails between beats is found by the next one; the event must have a listener.
    client.on('error', () => undefined);
    try {
      await client.connect();
    } catch (error) {
      destroyConnection(client);
      throw error;
    }
    return client;
  }

  private drop(client: Promise<Client>): void {
    if (this.client === client) this.client = undefined;
    void client.then(destroyConnection, () => undefined);
  }
}
