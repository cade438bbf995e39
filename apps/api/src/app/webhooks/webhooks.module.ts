import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ChosenDialect, unsupportedDatabase } from '../database/chosen-dialect';
import { PostgresWebhookOutbox } from './outbox/postgres-webhook-outbox';
import { SqliteWebhookOutbox } from './outbox/sqlite-webhook-outbox';
import { WebhookOutbox } from './outbox/webhook-outbox';
import { ApiPressure } from './api-pressure';
import { WebhookAttemptEntity } from './webhook-attempt.entity';
import { WebhookAttemptRecorder } from './webhook-attempt-recorder';
import { WebhookDispatcher } from './webhook-dispatcher';
import { WebhookEndpointEntity } from './webhook-endpoint.entity';
import { WebhookOutboxDepth } from './webhook-outbox-depth';
import { WebhookOutboxPurge } from './webhook-outbox-purge';

/** Signed webhooks, delivered from the outbox that creates fill; endpoints are registered with `npm run webhooks`. */
@Module({
  imports: [TypeOrmModule.forFeature([WebhookEndpointEntity, WebhookAttemptEntity])],
  providers: [
    WebhookDispatcher,
    WebhookAttemptRecorder,
    WebhookOutboxPurge,
    WebhookOutboxDepth,
    ApiPressure,
    {
      provide: WebhookOutbox,
      inject: [DataSource, ChosenDialect],
      useFactory: (dataSource: DataSource, { dialect }: ChosenDialect): WebhookOutbox => {
        switch (dialect.kind) {
          case 'sqlite':
            return new SqliteWebhookOutbox(dataSource, dialect.transactions);
          case 'postgres':
            return new PostgresWebhookOutbox(dataSource);
          default:
            return unsupportedDatabase(dialect);
        }
      },
    },
  ],
})
export class WebhooksModule {}
