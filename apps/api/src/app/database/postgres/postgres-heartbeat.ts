import type { Client } from 'pg';
import { withDeadline } from '../../timing/deadline';
import type { BeatAnswer, Heartbeat } from '../database-watch';

/** pg's socket; pg-pool reaches it the same way to abandon a connection that cannot even say goodbye. */
const socketOf = (client: Client) => (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream;

/** Destroys a client's connection at once: `end()` would wait for a server that may never answer. */
export function destroyConnection(client: Client): void {
  socketOf(client)?.destroy();
}

// Whether this server takes writes: a standby is in recovery; a primary being demoted, or a database made read-only,
// starts its sessions read-only.
const WRITABLE = "SELECT NOT pg_is_in_recovery() AND current_setting('transaction_read_only') = 'off' AS writable";

class NoAnswerInTime extends Error {}

/**
 * Asks whether the server takes writes, on a connection of its own, not the pool's (which may be full, or hung on a
 * silent network path). A beat not answered by its deadline destroys the connection, so that the next beat connects
 * afresh instead of waiting on one that may never fail by itself; a read-only answer does too, so that the next beat
 * asks whatever server the address leads to by then (a moved DNS name, a pooler's new primary).
 *
 * A connection kept from an earlier beat that fails says nothing of the server: it may have been ended on its own
 * (`pg_terminate_backend`, a pooler's restart or its idle timeout). The beat then asks once more on a fresh
 * connection, within what is left of its deadline, and only that answer counts: a database a new connection reaches
 * is not declared unreachable.
 */
export class PostgresHeartbeat implements Heartbeat {
  private client?: Promise<Client>;

  constructor(private readonly newClient: () => Client) {}

  async beat(deadlineMs: number): Promise<BeatAnswer> {
    const kept = this.client !== undefined;
    const started = performance.now();
    try {
      return await this.ask(deadlineMs);
    } catch (error) {
      // Silence spent the deadline: that is the server's, or the path's, not the connection's.
      if (!kept || error instanceof NoAnswerInTime) throw error;
      return this.ask(Math.max(1, deadlineMs - (performance.now() - started)));
    }
  }

  private async ask(deadlineMs: number): Promise<BeatAnswer> {
    const connected = (this.client ??= this.connect());
    try {
      const { rows } = await withDeadline(
        connected.then((client) => client.query<{ writable: boolean }>(WRITABLE)),
        deadlineMs,
        () => new NoAnswerInTime(`no answer to a heartbeat within ${deadlineMs} ms`),
      );
      const writable = rows[0]?.writable === true;
      if (!writable) this.drop(connected);
      return { writable };
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
