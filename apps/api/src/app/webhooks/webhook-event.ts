import { randomBytes } from 'node:crypto';
import { PET_EVENT_TYPES, type Pet, type PetEvent, type PetEventType } from '@petstore/contract';
import type { ValueTransformer } from 'typeorm';

/** The events an endpoint can receive: every event there is. */
export const WEBHOOK_EVENT_TYPES = PET_EVENT_TYPES;
export type WebhookEventType = PetEventType;

/**
 * `webhook-id` of a message: the same on every attempt of it, and unique across every message (Standard Webhooks), so
 * that receivers can deduplicate by it. The outbox's ids alone are unique in one database only: a receiver that keeps
 * the ids it has seen would drop the events of a second service, or of a database made anew, as replays. The tag of
 * the endpoint (random, {@link newMessageTag}) makes them unique beyond it.
 */
export const messageId = (endpointTag: string, id: number) => `msg_${endpointTag}_${id}`;

/** 64 random bits, hex: an endpoint's tag, made when it is registered. */
export const newMessageTag = () => randomBytes(8).toString('hex');

/** The body as sent, the same bytes on every attempt: the pet as its 201 answered it, fields in the interface's order. */
export function eventBody(type: WebhookEventType, createdAt: number, pet: Pet): string {
  const event: PetEvent = { type, timestamp: new Date(createdAt).toISOString(), data: pet };
  return JSON.stringify(event);
}

const isEventType = (value: string): value is WebhookEventType => (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);

/**
 * The events of `webhooks add --events`, comma-separated: an unknown, empty or repeated one is refused, naming it.
 */
export function parseEventTypes(text: string): WebhookEventType[] {
  // Stryker disable next-line StringLiteral: one event type so far, which no separator changes.
  const known = WEBHOOK_EVENT_TYPES.join(', ');
  const events: WebhookEventType[] = [];
  for (const item of text.split(',').map((part) => part.trim())) {
    if (item === '') throw new Error(`an empty event type in "${text}"; name one or more of ${known}.`);
    if (!isEventType(item)) throw new Error(`unknown event type "${item}"; the event types are ${known}.`);
    if (events.includes(item)) throw new Error(`event type "${item}" is named twice.`);
    events.push(item);
  }
  return events;
}

/** Event types are stored space-separated; the outbox trigger matches them so (create-webhooks migration). */
export const eventList: ValueTransformer = {
  from: (value: unknown) => (typeof value === 'string' ? value.split(' ').filter(isEventType) : value),
  to: (value: unknown) => (Array.isArray(value) ? value.join(' ') : value),
};
