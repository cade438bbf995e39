import type { Pet } from '@petstore/contract';
import type { WebhookEventType } from '../../webhooks/webhook-event';

/** An event as the log keeps it, with the pet its body is made of. */
export interface LoggedEvent {
  /** Increases with every event, in the order they became visible; the same on every instance. */
  position: number;
  type: WebhookEventType;
  /** When it happened (epoch ms). */
  createdAt: number;
  pet: Pet;
}

/** What the log holds: the oldest position kept (null when it holds none) and the last position ever given. */
export interface EventLogBounds {
  oldest: number | null;
  last: number;
}

/**
 * The log of events, one implementation per database. Rows are put in by a trigger on `pets` (the create-pet-events
 * migration); this reads them in order of position and forgets old ones. One reader per instance calls it, never one
 * per subscriber.
 */
export abstract class PetEventLog {
  /** Up to `limit` events after `position`, in order of position, each with its pet. */
  abstract readAfter(position: number, limit: number): Promise<LoggedEvent[]>;

  abstract bounds(): Promise<EventLogBounds>;

  /** Deletes the events that happened at or before `before` (epoch ms). */
  abstract purge(before: number): Promise<void>;
}
