import type { Pet } from './pet';

/** The type of an event. */
export type PetEventType = 'pet.created';

/** The events there are: what a webhook endpoint subscribes to, and what `GET /v1/events` streams. */
export const PET_EVENT_TYPES: readonly PetEventType[] = ['pet.created'];

/** The body of an event, the same in a webhook's request and in a stream's `data` line. */
export interface PetEvent {
  /** What happened: `pet.created`. */
  type: PetEventType;
  /** When it happened: RFC 3339, UTC, to the millisecond. */
  timestamp: string;
  /** The pet as its create answered it. */
  data: Pet;
}
