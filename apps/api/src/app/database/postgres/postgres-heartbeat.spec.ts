import type { Client } from 'pg';
import { PostgresHeartbeat } from './postgres-heartbeat';

/** A pg Client as the heartbeat uses it, answering its query as told, and whether its socket was destroyed. */
function fakeClient(answer: () => Promise<{ rows: Array<{ writable: boolean }> }>) {
  const fake = {
    destroyed: false,
    queries: 0,
    on: () => fake,
    connect: () => Promise.resolve(),
    query: () => {
      fake.queries += 1;
      return answer();
    },
    connection: { stream: { destroy: () => (fake.destroyed = true) } },
  };
  return fake;
}

const never = () => new Promise<never>(() => undefined);
const writable = (value: boolean) => () => Promise.resolve({ rows: [{ writable: value }] });

describe(PostgresHeartbeat.name, () => {
  // docs/operations.md: a heartbeat runs on a connection of its own; one missed drops that connection, so that the next
  // beat does not wait on a socket that may never fail by itself.
  it('destroys its connection when a beat is not answered by the deadline, and the next beat connects afresh', async () => {
    const clients = [fakeClient(never), fakeClient(writable(true))];
    const made: typeof clients = [];
    const sut = new PostgresHeartbeat(() => {
      const next = clients[made.length];
      made.push(next);
      return next as unknown as Client;
    });

    await expect(sut.beat(20)).rejects.toThrow('no answer to a heartbeat within 20 ms');
    expect(made[0].destroyed).toBe(true);

    await expect(sut.beat(1_000)).resolves.toEqual({ writable: true });
    expect(made).toHaveLength(2);
    expect(made[1].destroyed).toBe(false);
  });

  it('keeps a connection that answers writable for the next beat, and drops one that answers read-only', async () => {
    const answers = [writable(true), writable(false)];
    const client = fakeClient(() => answers[client.queries - 1]());
    const fresh = fakeClient(writable(true));
    const made: Array<ReturnType<typeof fakeClient>> = [];
    const sut = new PostgresHeartbeat(() => {
      const next = made.length === 0 ? client : fresh;
      made.push(next);
      return next as unknown as Client;
    });

    await expect(sut.beat(1_000)).resolves.toEqual({ writable: true });
    await expect(sut.beat(1_000)).resolves.toEqual({ writable: false });
    expect({ connections: made.length, queriesOnTheFirst: client.queries, destroyed: client.destroyed }).toEqual({ connections: 1, queriesOnTheFirst: 2, destroyed: true });
    // The next beat asks whatever server the address leads to now, on a new connection.
    await expect(sut.beat(1_000)).resolves.toEqual({ writable: true });
    expect(made).toEqual([client, fresh]);
  });

  it('destroys its connection when stopped, without waiting for the server', async () => {
    const client = fakeClient(writable(true));
    const sut = new PostgresHeartbeat(() => client as unknown as Client);
    await sut.beat(1_000);
    sut.stop();
    await Promise.resolve();
    expect(client.destroyed).toBe(true);
  });
});
