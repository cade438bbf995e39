import type { Pet } from '@petstore/contract';
import type { WebhookEventType } from '../webhook-event';

/** An endpoint as the dispatcher needs it. */
export interface DispatchEndpoint {
  id: number;
  url: string;
  secret: string;
  /** In the webhook-id of each of its messages. */
  messageTag: string;
}

/** A message claimed for delivery by this instance, with the pet its body is made of. */
export interface ClaimedMessage {
  id: number;
  endpointId: number;
  eventType: WebhookEventType;
  /** The event's time (epoch ms). */
  createdAt: number;
  /** Attempts made before this one. */
  attempts: number;
  /** The claim's lease: its outcome is applied only while the message is still held under it. */
  leaseUntil: number;
  pet: Pet;
}

/** What one attempt came to, and what becomes of its message. */
export interface AttemptRecord {
  messageId: number;
  endpointId: number;
  /** This attempt's number, from 1. */
  attempt: number;
  attemptedAt: number;
  outcome: 'delivered' | 'retrying' | 'failed';
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** When a retrying message is next due. */
  nextAttemptAt: number | null;
  /** The lease it was attempted under: a late outcome, after another instance claimed the message again, is only logged. */
  leaseUntil: number;
}

/** How much is waiting: messages not yet delivered or failed, and when the oldest of them happened (epoch ms). */
export interface OutboxDepth {
  pending: number;
  oldestCreatedAt: number | null;
}

/**
 * The outbox as the dispatcher uses it, one implementation per database. Messages are put in by a trigger on `pets`
 * (the create-webhooks migration); this claims them, records attempts and forgets finished ones.
 */
export abstract class WebhookOutbox {
  abstract endpoints(): Promise<DispatchEndpoint[]>;

  /**
   * Claims up to `limit` of the endpoint's due messages, oldest first, until `leaseUntil`: no instance claims them
   * again before then, so each is attempted by one instance at a time, and one that crashed only delays them.
   */
  abstract claim(endpointId: number, now: number, leaseUntil: number, limit: number): Promise<ClaimedMessage[]>;

  /** Applies attempts to their messages still held under their lease, and logs them all, in one transaction. */
  abstract record(attempts: AttemptRecord[]): Promise<void>;

  /** Gives up this instance's claim on messages it will not attempt (it is stopping), for any instance to take now. */
  abstract release(messageIds: number[]): Promise<void>;

  abstract depth(): Promise<OutboxDepth>;

  /** Deletes delivered and failed messages finished, and attempts made, at or before `before` (epoch ms). */
  abstract purge(before: number): Promise<void>;
}

/** A message's new state after an attempt, as the stores write it. */
export const messageState = (record: AttemptRecord) => (record.outcome === 'retrying' ? 'pending' : record.outcome);
