import { Injectable, Logger } from '@nestjs/common';
import { PeriodicTask } from '../timing/periodic-task';
import { PetStore } from './pet.store';

/**
 * During a rolling upgrade from 1.0, its instances keep inserting pets without a search key, which no name search finds.
 * Every few seconds this keys them (through the partial index of unkeyed pets: nothing to read when there are none),
 * so that they are found without waiting for a restart. With several instances each looks, which is harmless: a pet
 * keyed already is left alone.
 */
@Injectable()
export class NameKeyBackfill extends PeriodicTask {
  private readonly logger = new Logger(NameKeyBackfill.name);

  constructor(private readonly store: PetStore) {
    super(NameKeyBackfill.name, { everyMs: 5_000 }, 'Could not key the pets stored without a search key');
  }

  protected async run(): Promise<void> {
    const keyed = await this.store.keyUnkeyedPets();
    if (keyed > 0) this.logger.log(`Keyed ${keyed} pet(s) stored without a search key, by an instance of an older version`);
  }
}
