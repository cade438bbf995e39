import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../config/app-config';
import { ChosenDialect, unsupportedDatabase } from '../database/chosen-dialect';
import { DatabaseConnection } from '../database/database-connection';
import { Metrics } from '../metrics/metrics';
import { PetEventLog } from './log/pet-event-log';
import { PostgresPetEventLog } from './log/postgres-pet-event-log';
import { SqlitePetEventLog } from './log/sqlite-pet-event-log';
import { throughConnection } from './log/through-connection';
import { PetEventLogPurge } from './pet-event-log-purge';
import { EventFeed } from './stream/event-feed';
import { EventsController } from './stream/events.controller';
import { StreamCaps } from './stream/stream-caps';

/**
 * `GET /v1/events`: the log of events that creates fill (a trigger on `pets`), kept 7 days, the one reader of it per
 * instance that every open stream shares (EventFeed), and the streams' caps.
 */
@Module({
  controllers: [EventsController],
  providers: [
    PetEventLogPurge,
    {
      provide: EventFeed,
      inject: [PetEventLog, DatabaseConnection],
      useFactory: (log: PetEventLog, database: DatabaseConnection) => new EventFeed(throughConnection(log, database)),
    },
    {
      provide: StreamCaps,
      inject: [ConfigService, Metrics],
      useFactory: (config: ConfigService<AppConfig, true>, metrics: Metrics) => {
        const caps = new StreamCaps(config.get('eventStreams', { infer: true }));
        metrics.gauge('petstore_event_streams', 'Event streams open on this instance (GET /v1/events).', () => caps.size);
        return caps;
      },
    },
    {
      provide: PetEventLog,
      inject: [DataSource, ChosenDialect],
      useFactory: (dataSource: DataSource, { dialect }: ChosenDialect): PetEventLog => {
        switch (dialect.kind) {
          case 'sqlite':
            return new SqlitePetEventLog(dataSource, dialect.transactions);
          case 'postgres':
            return new PostgresPetEventLog(dataSource);
          default:
            return unsupportedDatabase(dialect);
        }
      },
    },
  ],
  exports: [PetEventLog, EventFeed],
})
export class EventsModule {}
