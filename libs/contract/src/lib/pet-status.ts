/** Availability of an animal. Kept free of decorators so that clients can import it at run time. */
export enum PetStatus {
  Available = 'available',
  Pending = 'pending',
  Sold = 'sold',
}

/** Every value of {@link PetStatus}, in the order the interface lists them. */
export const PET_STATUSES: readonly PetStatus[] = Object.values(PetStatus);
