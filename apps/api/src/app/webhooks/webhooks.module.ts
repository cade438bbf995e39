import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DatabaseDialect } from '../database/database-dialect';
import { SqliteDialect } from '../database/sqlite/sqlite.dialect';
import { PostgresWebhookOutbox } from './outbox/postgres-webhook-outbox';
import { SqliteWebhookOutbox } from './outbox/sqlite-webhook-outbox';
import { WebhookOutbox } from './outbox/webhook-outbox';
import { ApiPressure } from './api-pressure';
import { WebhookDispatcher } from './webhook-dispatcher';

/** Signed webhooks, delivered from the outbox that creates fill; endpoints are registered with `npm run webhooks`. */
@Module({
  providers: [
    WebhookDispatcher,
    ApiPressure,
    {
      provide: WebhookOutbox,
      inject: [DataSource, DatabaseDialect],
      useFactory: (dataSource: DataSource, dialect: DatabaseDialect): WebhookOutbox =>
        dialect instanceof SqliteDialect ? new SqliteWebhookOutbox(dataSource, dialect.transactions) : new PostgresWebhookOutbox(dataSource),
    },
  ],
})
export class WebhooksModule {}
