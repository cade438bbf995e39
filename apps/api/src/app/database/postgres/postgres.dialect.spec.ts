import type { DataSource } from 'typeorm';
import { PostgresDialect } from './postgres.dialect';

describe(PostgresDialect.name, () => {
  const dialect = () => new PostgresDialect({ type: 'postgres', url: 'postgres://u@db/petstore', poolSize: 3, connectTimeoutMs: 1_000, statementTimeoutMs: 4_000 });
  const connectedWith = async (sut: PostgresDialect) => ({ options: await sut.options() }) as unknown as DataSource;

  it('bounds each session on the server and each statement on the client', async () => {
    expect((await dialect().options()).extra).toEqual({
      statement_timeout: 4_000,
      idle_in_transaction_session_timeout: 8_000,
      query_timeout: 5_000,
      Client: expect.any(Function),
    });
  });

  it('bounds an operation by the connect and statement timeouts together', () => {
    expect(dialect().operationDeadlineMs()).toBe(5_000);
  });

  it('destroys the connection of every client the pool made, and of no other, when asked to evict them', async () => {
    const sut = dialect();
    const { Client: PooledClient } = (await sut.options()).extra as { Client: new (config: object) => { connection: { stream: { destroy(): void } } } };
    const pooled = [new PooledClient({}), new PooledClient({})];
    const destroyed = pooled.map(({ connection }) => jest.spyOn(connection.stream, 'destroy'));
    sut.evictConnections();
    for (const destroy of destroyed) expect(destroy).toHaveBeenCalledTimes(1);
  });

  it('forgets a pooled client once its connection ended', async () => {
    const sut = dialect();
    const { Client: PooledClient } = (await sut.options()).extra as { Client: new (config: object) => { connection: { stream: { destroy(): void } }; emit(event: string): void } };
    const [ended, open] = [new PooledClient({}), new PooledClient({})];
    const [destroyedEnded, destroyedOpen] = [jest.spyOn(ended.connection.stream, 'destroy'), jest.spyOn(open.connection.stream, 'destroy')];
    ended.emit('end');
    sut.evictConnections();
    expect({ ended: destroyedEnded.mock.calls.length, open: destroyedOpen.mock.calls.length }).toEqual({ ended: 0, open: 1 });
  });

  it('watches the database with a heartbeat once connected', async () => {
    const sut = dialect();
    expect(sut.heartbeat()).toBeUndefined();
    await sut.options();
    expect(sut.heartbeat()).toBeDefined();
  });

  it('drops the session settings, once, when a pooler refuses them, and keeps the client-side bound', async () => {
    const sut = dialect();
    const dataSource = await connectedWith(sut);
    const refused = Object.assign(new Error('unsupported startup parameter: statement_timeout'), { code: '08P01' });
    expect(sut.adaptTo(dataSource, refused)).toMatch(
      /^The server refused per-connection settings \(unsupported startup parameter: statement_timeout\): a pooler such as PgBouncer .*DATABASE_STATEMENT_TIMEOUT_MS \+ 1 s, and the pooler's query_timeout or the role's statement_timeout bounds them on the server\.$/,
    );
    expect(dataSource.options.extra).toEqual({ query_timeout: 5_000, Client: expect.any(Function) });
    // Nothing left to drop: the next failure is a failure, retried as any other.
    expect(sut.adaptTo(dataSource, refused)).toBeUndefined();
  });

  it.each([new Error('connect ECONNREFUSED 127.0.0.1:5432'), new Error('password authentication failed'), 'not an error', undefined, null])(
    'changes nothing for any other failure: %s',
    async (failure) => {
      const sut = dialect();
      const dataSource = await connectedWith(sut);
      expect(sut.adaptTo(dataSource, failure)).toBeUndefined();
      expect(dataSource.options.extra).toMatchObject({ statement_timeout: 4_000 });
    },
  );
});
