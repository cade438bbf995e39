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

  describe('a kept connection that fails (ended by pg_terminate_backend, a pooler restart)', () => {
    const ended = () => Promise.reject(new Error('Connection terminated unexpectedly'));
    /** A heartbeat over `clients` in turn, and the clients it made. */
    const over = (...clients: Array<ReturnType<typeof fakeClient>>) => {
      const made: typeof clients = [];
      const sut = new PostgresHeartbeat(() => {
        const next = clients[made.length];
        made.push(next);
        return next as unknown as Client;
      });
      return { sut, made };
    };

    it('is asked again on a fresh connection within the same beat, whose answer is the beat', async () => {
      const kept = fakeClient(() => (kept.queries === 1 ? writable(true)() : ended()));
      const { sut, made } = over(kept, fakeClient(writable(true)));
      await expect(sut.beat(1_000)).resolves.toEqual({ writable: true });

      await expect(sut.beat(1_000)).resolves.toEqual({ writable: true });
      expect({ connections: made.length, keptDestroyed: kept.destroyed, freshQueries: made[1].queries }).toEqual({ connections: 2, keptDestroyed: true, freshQueries: 1 });
    });

    it('fails the beat when the fresh connection fails too', async () => {
      const kept = fakeClient(() => (kept.queries === 1 ? writable(true)() : ended()));
      const { sut, made } = over(kept, fakeClient(() => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432'))));
      await sut.beat(1_000);
      await expect(sut.beat(1_000)).rejects.toThrow('ECONNREFUSED');
      expect(made).toHaveLength(2);
    });

    it('is not asked again when the beat was already on a fresh connection, nor when the kept one fell silent', async () => {
      const { sut: fresh, made: first } = over(fakeClient(ended), fakeClient(writable(true)));
      await expect(fresh.beat(1_000)).rejects.toThrow('Connection terminated unexpectedly');
      expect(first).toHaveLength(1);

      const kept = fakeClient(() => (kept.queries === 1 ? writable(true)() : never()));
      const { sut: silent, made: second } = over(kept, fakeClient(writable(true)));
      await silent.beat(1_000);
      await expect(silent.beat(20)).rejects.toThrow('no answer to a heartbeat within 20 ms');
      expect(second).toHaveLength(1);
    });
  });

  it('destroys a connection that could not connect, and answers a server that says nothing as not writable', async () => {
    const refused = Object.assign(fakeClient(writable(true)), { connect: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432')) });
    const empty = fakeClient(() => Promise.resolve({ rows: [] }));
    const clients = [refused, empty];
    const sut = new PostgresHeartbeat(() => clients.shift() as unknown as Client);
    await expect(sut.beat(1_000)).rejects.toThrow('ECONNREFUSED');
    expect(refused.destroyed).toBe(true);
    await expect(sut.beat(1_000)).resolves.toEqual({ writable: false });
  });

  it('asks the fresh connection within what is left of the beat’s deadline', async () => {
    const kept = fakeClient(() => (kept.queries === 1 ? writable(true)() : Promise.reject(new Error('Connection terminated unexpectedly'))));
    const clients = [kept, fakeClient(never)];
    const sut = new PostgresHeartbeat(() => clients.shift() as unknown as Client);
    await sut.beat(1_000);
    // The kept connection's failure came 600 ms into a beat of 1,000 ms.
    jest.spyOn(performance, 'now').mockReturnValueOnce(10_000).mockReturnValueOnce(10_600);
    await expect(sut.beat(1_000)).rejects.toThrow('no answer to a heartbeat within 400 ms');
  });

  it('keeps the connection a later beat made when an earlier, overlapping beat on the dropped one fails', async () => {
    let failLate!: (error: Error) => void;
    const answers = [writable(false), () => new Promise<never>((_, reject) => (failLate = reject))];
    const first = fakeClient(() => answers[first.queries - 1]());
    const second = fakeClient(writable(true));
    const made: Array<ReturnType<typeof fakeClient>> = [];
    const sut = new PostgresHeartbeat(() => {
      const next = [first, second, fakeClient(writable(true))][made.length];
      made.push(next);
      return next as unknown as Client;
    });
    const [readOnly, late] = [sut.beat(1_000), sut.beat(1_000)];
    await expect(readOnly).resolves.toEqual({ writable: false });
    await expect(sut.beat(1_000)).resolves.toEqual({ writable: true });
    // The late beat asks again on the connection held now, which stays held.
    failLate(new Error('Connection terminated unexpectedly'));
    await expect(late).resolves.toEqual({ writable: true });
    await expect(sut.beat(1_000)).resolves.toEqual({ writable: true });
    expect({ made, queriesOnTheSecond: second.queries }).toEqual({ made: [first, second], queriesOnTheSecond: 3 });
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
