import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ChosenDialect, unsupportedDatabase } from '../database/chosen-dialect';
import { PetEventLog } from './log/pet-event-log';
import { PostgresPetEventLog } from './log/postgres-pet-event-log';
import { SqlitePetEventLog } from './log/sqlite-pet-event-log';
import { PetEventLogPurge } from './pet-event-log-purge';
import { EventFeed } from './stream/event-feed';

/**
 * The log of events that creates fill (a trigger on `pets`), kept 7 days, and the one reader of it per instance that
 * the event stream's subscribers share (EventFeed).
 */
@Module({
  providers: [
    PetEventLogPurge,
    { provide: EventFeed, inject: [PetEventLog], useFactory: (log: PetEventLog) => new EventFeed(log) },
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
