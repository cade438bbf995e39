import type { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../config/app-config';
import type { DatabaseConnection } from '../database/database-connection';
import type { Metrics } from '../metrics/metrics';
import type { ApiPressure } from './api-pressure';
import type { WebhookOutbox } from './outbox/webhook-outbox';
import type { WebhookAttemptRecorder } from './webhook-attempt-recorder';
import { WebhookDispatcher } from './webhook-dispatcher';

// docs/operations.md: while the database is unreachable the dispatcher does not poll the outbox (each poll would
// wait for a connection that is not coming), and it polls again once the database answers.
describe(WebhookDispatcher.name, () => {
  const database = { serving: true, run: <T>(operation: () => Promise<T>) => operation() };
  const outbox = { endpoints: jest.fn(async () => []) };
  const sut = new WebhookDispatcher(
    { get: () => ({ timeoutMs: 1_000 }) } as unknown as ConfigService<AppConfig, true>,
    outbox as unknown as WebhookOutbox,
    database as unknown as DatabaseConnection,
    { gauge: () => undefined } as unknown as Metrics,
    {} as ApiPressure,
    {} as WebhookAttemptRecorder,
  );

  it('does not look at the outbox while the database is not serving, and does again once it is', async () => {
    database.serving = false;
    await sut.poll();
    await sut.poll();
    expect(outbox.endpoints).not.toHaveBeenCalled();

    database.serving = true;
    await sut.poll();
    expect(outbox.endpoints).toHaveBeenCalledTimes(1);
  });
});
