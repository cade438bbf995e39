import type { DataSource, QueryRunner } from 'typeorm';
import { fillMissingNameKeys } from './name-key-fill';
import { refoldNameKeys } from './name-key-refold';

/**
 * Every pet's search key as this version writes it: written where an older version stored none (1.0), rewritten where
 * it has a final sigma (1.1.0, 1.1.1). Run after the migrations, and every few seconds while instances of an older
 * version may still be writing (NameKeyBackfill). Returns how many pets it changed.
 */
export async function completeNameKeys(on: DataSource | QueryRunner): Promise<number> {
  return (await fillMissingNameKeys(on)) + (await refoldNameKeys(on));
}
