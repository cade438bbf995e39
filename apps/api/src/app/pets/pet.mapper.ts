import type { Pet } from '@petstore/contract';
import type { PetEntity } from './pet.entity';

/** The one mapping from a table row to the contract's Pet; fields in the interface's order. */
export const toPet = (entity: PetEntity): Pet => ({
  id: entity.id,
  name: entity.name,
  categoryId: entity.categoryId,
  status: entity.status,
});
