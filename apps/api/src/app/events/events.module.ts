import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ChosenDialect, unsupportedDatabase } from '../database/chosen-dialect';
import { PetEventLog } from './log/pet-event-log';
import { PostgresPetEventLog } from './log/postgres-pet-event-log';
import { SqlitePetEventLog } from './log/sqlite-pet-event-log';
import { PetEventLogPurge } from './pet-event-log-purge';

/** The log of events that creates fill (a trigger on `pets`), kept 7 days, for the event stream. */
@Module({
  providers: [
    PetEventLogPurge,
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
  exports: [PetEventLog],
})
export class EventsModule {}
