import type { PetStatus } from './pet-status';

/** An animal to add to the store; the service assigns its `id`. */
export interface NewPet {
  /** The animal's name: 1 to 100 Unicode code points with at least one non-whitespace character. */
  name: string;
  /** Identifier of the category the animal belongs to (1 to 2^53 - 1). */
  categoryId: number;
  /** Availability of the animal. @default PetStatus.Available */
  status?: PetStatus;
}

/** An animal as the service returns it. */
export interface Pet extends NewPet {
  /** Unique identifier assigned by the service; increasing and never reused. */
  id: number;
}
