import { Global, Module, type OnApplicationBootstrap, type OnApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { Server } from 'node:http';
import { Counter } from 'prom-client';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../config/app-config';
import { DatabaseConnection } from '../database/database-connection';
import { ChosenDialect, unsupportedDatabase } from '../database/chosen-dialect';
import type { PostgresDialect } from '../database/postgres/postgres.dialect';
import { ShutdownState } from '../http/shutdown-state';
import { RateLimits } from '../rate-limit/rate-limits';
import { listenForScrapes } from './metrics-listener';
import { Metrics } from './metrics';

/** The instance's state, read when Prometheus scrapes, and the scrape listener, started once the app is built. */
@Injectable()
class MetricsExport implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Metrics');
  private server?: Server;

  constructor(
    private readonly metrics: Metrics,
    private readonly config: ConfigService<AppConfig, true>,
    private readonly database: DatabaseConnection,
    private readonly shutdown: ShutdownState,
    private readonly dataSource: DataSource,
    private readonly chosen: ChosenDialect,
    private readonly limits: RateLimits,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { metrics, database, shutdown } = this;
    const { dialect } = this.chosen;
    // First, so that the pool is read before this scrape's own query takes a connection from it.
    switch (dialect.kind) {
      case 'postgres':
        this.exportPool(dialect);
        break;
      case 'sqlite':
        // One file, no pool.
        break;
      default:
        unsupportedDatabase(dialect);
    }
    // One query per scrape answers both.
    let answering: { at: number; answers: Promise<boolean> } | undefined;
    const answers = () => {
      if (!answering || Date.now() - answering.at > 1_000) answering = { at: Date.now(), answers: database.answers() };
      return answering.answers;
    };
    metrics.gauge('petstore_database_up', 'Whether the database answers a query now (1) or not (0).', async () => Number(await answers()));
    metrics.gauge('petstore_database_writable', 'Whether the database takes writes now (1), or is known to be read-only or away (0).', () =>
      Number(database.writable),
    );
    metrics.gauge('petstore_ready', 'Whether this instance is ready for traffic (1) or not (0), as /health/ready says.', async () =>
      Number(!shutdown.stopping && database.writable && (await answers())),
    );

    const { limits } = this;
    // Without REDIS_URL there is no redis series, so that an alert on it cannot fire there.
    metrics.gauges(
      'petstore_rate_limit_store',
      'Where rate limits are counted now (1): in Redis, shared by every instance, or in this process.',
      'store',
      (): Record<string, number> =>
        limits.sharedStoreConfigured ? { redis: Number(limits.store === 'redis'), in_process: Number(limits.store === 'in_process') } : { in_process: 1 },
    );
    if (limits.sharedStoreConfigured) {
      let reported = 0;
      new Counter({
        name: 'petstore_rate_limit_in_process_counts_total',
        help: 'Rate-limit counts made in this process although REDIS_URL is set (Redis missed its budget or is away): requests the shared limit did not see.',
        registers: [metrics.registry],
        collect() {
          this.inc(limits.countedInProcess - reported);
          reported = limits.countedInProcess;
        },
      });
    }

    const target = this.config.get('metrics', { infer: true });
    if (!target) return;
    try {
      this.server = await listenForScrapes(metrics.registry, target.port, target.host);
      this.logger.log(`Prometheus metrics at http://${target.host}:${target.port}/metrics`);
    } catch (error) {
      // The API still serves: a second instance on one machine with the default METRICS_PORT must not stay down for it.
      this.logger.error(
        `Prometheus metrics are off for this instance: cannot listen on ${target.host}:${target.port} (${(error as Error).message}). ` +
          'Give each instance on a machine its own METRICS_PORT, or 0 to turn metrics off.',
      );
    }
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    if (server) await new Promise((resolve) => server.close(resolve));
  }

  /** The pool TypeORM made; it exists once the database connected, and is replaced when it reconnects. */
  private exportPool(dialect: PostgresDialect): void {
    const pool = () => dialect.pool(this.dataSource);
    this.metrics.gauges('petstore_db_pool_connections', 'PostgreSQL connections of this instance, by state; waiting counts requests queued for one.', 'state', () => {
      const current = pool();
      return { in_use: current ? current.totalCount - current.idleCount : 0, idle: current?.idleCount ?? 0, waiting: current?.waitingCount ?? 0 };
    });
    const size = this.config.get('database', { infer: true }).poolSize;
    this.metrics.gauge('petstore_db_pool_size', 'The most PostgreSQL connections this instance opens (DATABASE_POOL_SIZE).', () => size);
  }
}

/** Prometheus metrics: one registry per app, its own listener (METRICS_PORT, METRICS_HOST), off with METRICS_PORT=0. */
@Global()
@Module({
  providers: [{ provide: Metrics, useFactory: () => new Metrics({ process: true }) }, MetricsExport],
  exports: [Metrics],
})
export class MetricsModule {}
