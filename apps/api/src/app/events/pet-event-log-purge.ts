import { Injectable } from '@nestjs/common';
import { DatabaseConnection } from '../database/database-connection';
import { HOURLY_PURGE, PeriodicTask } from '../timing/periodic-task';
import { KEEP_FINISHED_MS } from '../webhooks/webhook-outbox-purge';
import { PetEventLog } from './log/pet-event-log';

/**
 * Deletes events once they are as old as webhook messages are kept (7 days), hourly (first a minute after the start);
 * a stream resumed from a position purged meanwhile is told so. With several instances each purges, which is
 * harmless.
 */
@Injectable()
export class PetEventLogPurge extends PeriodicTask {
  constructor(
    private readonly log: PetEventLog,
    private readonly database: DatabaseConnection,
  ) {
    super(PetEventLogPurge.name, HOURLY_PURGE, 'Old events not purged');
  }

  protected async run(now: number): Promise<void> {
    await this.database.run(() => this.log.purge(now - KEEP_FINISHED_MS));
  }
}
