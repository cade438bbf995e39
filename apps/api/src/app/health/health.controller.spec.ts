import type { HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';
import type { DatabaseConnection } from '../database/database-connection';
import { ApiException } from '../errors/api-exception';
import { ShutdownState } from '../http/shutdown-state';
import { HealthController } from './health.controller';

/** The controller over a connection in the given state; Terminus is not reached by `routable`. */
const controllerWith = (connection: Pick<DatabaseConnection, 'ready' | 'serving'> & { migrating?: string }, shutdown = new ShutdownState()) =>
  new HealthController({} as HealthCheckService, {} as HealthIndicatorService, shutdown, connection as DatabaseConnection);

const refusal = (probe: () => unknown) => {
  try {
    probe();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiException);
    const { code, message, headers } = error as ApiException;
    return { code, message, headers };
  }
  throw new Error('the probe answered 200');
};

describe(`${HealthController.name}.routable`, () => {
  it('is 503 while starting: the database not yet reached and migrated once', () => {
    const sut = controllerWith({ ready: false, serving: false });
    expect(refusal(() => sut.routable())).toMatchObject({ code: 'service_unavailable', message: 'The service is starting.', headers: { 'retry-after': '1' } });
  });

  it('is 503 while migrating, saying the step and how far it is', () => {
    const sut = controllerWith({ ready: false, serving: false, migrating: 'Index pets_name_key_trgm, 500 of 1,000 rows (50%)' });
    expect(refusal(() => sut.routable())).toMatchObject({
      code: 'service_unavailable',
      message: 'The service is starting: migrating the database (Index pets_name_key_trgm, 500 of 1,000 rows (50%)).',
      headers: { 'retry-after': '5' },
    });
  });

  it('is 200 once started, and stays 200 while the database is away (ready, not serving): callers get the 503s', () => {
    expect(controllerWith({ ready: true, serving: true }).routable()).toEqual({ status: 'ok' });
    expect(controllerWith({ ready: true, serving: false }).routable()).toEqual({ status: 'ok' });
  });

  it('is 503 from the first moment of a stop', () => {
    const shutdown = new ShutdownState();
    const sut = controllerWith({ ready: true, serving: true }, shutdown);
    shutdown.beforeApplicationShutdown();
    expect(refusal(() => sut.routable())).toMatchObject({ code: 'service_unavailable', message: 'The service is shutting down.' });
  });
});
