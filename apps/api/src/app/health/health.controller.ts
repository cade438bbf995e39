import { Controller, Get } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';
import { Public } from '../auth/public.decorator';
import { ApiException } from '../errors/api-exception';
import { DatabaseConnection } from '../database/database-connection';
import { databaseReadOnly, serviceUnavailable } from '../database/database-failure';
import { ShutdownState } from '../http/shutdown-state';

/** Probes for orchestrators and load balancers, without a key; which asks which, and why: docs/operations.md. */
@Public()
@ApiExcludeController()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly shutdown: ShutdownState,
    private readonly connection: DatabaseConnection,
  ) {}

  @Get('live')
  live() {
    return { status: 'ok' };
  }

  @Get('ready')
  @HealthCheck()
  async ready() {
    this.assertNotStopping();
    // Connected is not enough: an instance that cannot create (not migrated, the database silent or read-only) leaves
    // the load balancer's pool.
    this.assertNotMigrating();
    if (!this.connection.serving) throw serviceUnavailable();
    if (!this.connection.writable) throw databaseReadOnly();
    try {
      return await this.health.check([() => this.pingDatabase()]);
    } catch {
      throw serviceUnavailable();
    }
  }

  /**
   * Not Terminus's TypeORM indicator: it loads `@nestjs/typeorm` by name at run time, which the bundled service cannot
   * resolve (docs/performance.md, "Where the memory goes").
   */
  private async pingDatabase() {
    const database = this.indicators.check('database');
    return (await this.connection.ping()) ? database.up() : database.down('The database did not answer within 1 s.');
  }

  /** Started (the database reached and migrated once) and not stopping, whatever the database does since. */
  @Get('routable')
  routable() {
    this.assertNotStopping();
    // `ready` turns true once, at the first connect, and false only on close: a later outage leaves it true.
    this.assertNotMigrating();
    if (!this.connection.ready) throw new ApiException('service_unavailable', 'The service is starting.', { 'retry-after': '1' });
    return { status: 'ok' };
  }

  /** Not ready while migrating; says how far it is, for an operator reading it with `curl`. */
  private assertNotMigrating(): void {
    const step = this.connection.migrating;
    if (step) throw new ApiException('service_unavailable', `The service is starting: migrating the database (${step}).`, { 'retry-after': '5' });
  }

  private assertNotStopping(): void {
    if (this.shutdown.stopping) throw new ApiException('service_unavailable', 'The service is shutting down.');
  }
}
