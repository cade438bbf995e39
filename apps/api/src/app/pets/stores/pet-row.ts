import type { Pet, PetStatus } from '@petstore/contract';
import type { PetToCreate } from '../pet-store';
import { toSafeInteger } from '../../database/safe-integer';

/** The columns of `pets` as the stores select them, named as the contract names them. */
export const PET_COLUMNS = 'id, name, category_id AS "categoryId", status';

/** The columns a create writes, in the order of {@link petValues}; `id` is the database's to assign. */
export const PET_INSERT_COLUMNS = ['name', 'category_id', 'status'] as const;

/** A new pet's values for PET_INSERT_COLUMNS. */
export const petValues = (pet: PetToCreate): unknown[] => [pet.name, pet.categoryId, pet.status];

/** A row as selected with PET_COLUMNS; PostgreSQL gives 64-bit columns as strings. */
export interface PetRow {
  id: number | string;
  name: string;
  categoryId: number | string;
  status: PetStatus;
}

/** The one mapping from a row to the contract's Pet; fields in the interface's order. */
export const toPet = (row: PetRow): Pet => ({
  id: toSafeInteger(row.id),
  name: row.name,
  categoryId: toSafeInteger(row.categoryId),
  status: row.status,
});
