import { Injectable, Logger } from '@nestjs/common';
import { PeriodicTask } from '../timing/periodic-task';
import { PetStore } from './pet.store';

/**
 * During a rolling upgrade, instances of the older version keep inserting pets without a search key (1.0), which no
 * name search finds, or with a final sigma in it (1.1.0, 1.1.1), which a search ending in sigma misses. Every few
 * seconds this writes their keys as this version does (completeNameKeys, through partial indexes of those pets:
 * nothing to read when there are none), so that they are found without waiting for a restart. With several instances
 * each looks, which is harmless: a pet keyed already is left alone.
 */
@Injectable()
export class NameKeyBackfill extends PeriodicTask {
  private readonly logger = new Logger(NameKeyBackfill.name);

  constructor(private readonly store: PetStore) {
    super(NameKeyBackfill.name, { everyMs: 5_000 }, 'Could not key the pets stored without a search key');
  }

  protected async run(): Promise<void> {
    const keyed = await this.store.completeNameKeys();
    if (keyed > 0) this.logger.log(`Wrote the search key of ${keyed} pet(s) stored by an instance of an older version`);
  }
}
