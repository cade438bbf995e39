import type { Pet } from '@petstore/contract';
import { startWebhookReceiver, WEBHOOK_RECEIVER_ENV, type WebhookReceiver } from '@petstore/testing';

/**
 * Quick retries and a short attempt deadline, which shortens the lease after which what a killed instance had claimed
 * is attempted again.
 */
export const WEBHOOK_ENV = {
  ...WEBHOOK_RECEIVER_ENV,
  WEBHOOK_RETRY_SCHEDULE: '0.2,0.5,1,1,1,1,1,1,1,1',
  WEBHOOK_TIMEOUT_MS: '1000',
};
/** Room for a lease taken just before the last kill, then retries. */
const PATIENCE_MS = 30_000;
/** The share of signed deliveries answered 500, so that retries are exercised too. */
const REFUSED_SHARE = 0.1;

export interface WebhookFigures {
  /** Acknowledged pets: each must have its pet.created delivered. */
  expected: number;
  /** Acknowledged pets with a correctly signed 2xx delivery carrying the pet as acknowledged. */
  delivered: number;
  /** Without one, after the wait. */
  missing: number;
  badSignatures: number;
  /** Correctly signed deliveries whose pet is not stored as they carry it. */
  unstored: number;
  /** Allowed (at-least-once delivery), but counted. */
  duplicates: number;
  /** Correctly signed deliveries answered 500 on purpose (each is retried). */
  refused: number;
  /** Anything else unexpected: another event type, a pet under two webhook-ids, a webhook-id with two bodies. */
  otherErrors: number;
  /** From the end of the last cycle until every acknowledged pet had its delivery, or the wait ran out. */
  waitedSeconds: number;
  problems: string[];
}

/** Checks each signature, and refuses a share of deliveries drawn by `random`. */
export function startCrashReceiver(random: () => number): Promise<WebhookReceiver> {
  return startWebhookReceiver({ verify: true, answer: () => (random() < REFUSED_SHARE ? 500 : 204) });
}

/** Acknowledged pets with a delivery so far. */
export function deliveredCount(receiver: WebhookReceiver, acknowledged: Pet[]): number {
  const delivered = byPetId(firstDeliveries(receiver));
  return acknowledged.filter((pet) => samePet(delivered.get(pet.id), pet)).length;
}

/** Until every acknowledged pet has a delivery, or the patience runs out; the seconds waited. */
export async function waitForAll(receiver: WebhookReceiver, acknowledged: Pet[]): Promise<number> {
  const started = performance.now();
  await receiver.waitFor(() => deliveredCount(receiver, acknowledged) === acknowledged.length, PATIENCE_MS);
  return (performance.now() - started) / 1000;
}

/** The deliveries against the acknowledged pets and the table as read at the end. */
export function checkDeliveries(receiver: WebhookReceiver, acknowledged: Pet[], stored: Pet[], waitedSeconds: number): WebhookFigures {
  const problems: string[] = [];
  // The first few say enough; a wrong secret fails them all.
  for (const { webhookId, badSignature } of receiver.received.filter(({ badSignature }) => badSignature).slice(0, 20)) {
    problems.push(`bad signature: ${webhookId}: ${badSignature}`);
  }
  const deliveries = firstDeliveries(receiver, problems);
  const delivered = byPetId(deliveries);
  const missing = acknowledged.filter((pet) => !samePet(delivered.get(pet.id), pet));
  for (const pet of missing.slice(0, 20)) problems.push(`missing: no delivery of pet.created for acknowledged ${json(pet)}`);
  const rows = new Map(stored.map((pet) => [pet.id, pet]));
  const idsOfPet = new Map<number, string[]>();
  let unstored = 0;
  for (const [id, pet] of deliveries) {
    const row = rows.get((pet as Pet | undefined)?.id ?? NaN);
    if (!row || !samePet(row, pet)) {
      if (unstored++ < 20) problems.push(`unstored: ${id} carried ${json(pet)}, ${row ? `stored as ${json(row)}` : 'which is not stored'}`);
    } else {
      idsOfPet.set(row.id, [...(idsOfPet.get(row.id) ?? []), id]);
    }
  }
  // One message per pet and endpoint: two webhook-ids for one pet are two events a receiver cannot deduplicate.
  for (const [petId, ids] of idsOfPet) if (ids.length > 1) problems.push(`other: pet ${petId} was delivered under ${ids.join(', ')}`);
  const { badSignatures, duplicates } = receiver.counts();
  return {
    expected: acknowledged.length,
    delivered: acknowledged.length - missing.length,
    missing: missing.length,
    unstored,
    badSignatures,
    duplicates,
    refused: receiver.received.filter(({ answered }) => answered === 500).length,
    otherErrors: problems.filter((problem) => problem.startsWith('other:')).length,
    waitedSeconds,
    problems,
  };
}

/** The pet each webhook-id carried when first answered 2xx; `problems` gets other event types and changed pets. */
function firstDeliveries(receiver: WebhookReceiver, problems?: string[]): Map<string, unknown> {
  const first = new Map<string, unknown>();
  for (const { webhookId, event } of receiver.delivered()) {
    const { type, data } = (event ?? {}) as { type?: unknown; data?: unknown };
    if (type !== 'pet.created') problems?.push(`other: ${webhookId} is of type ${json(type)}`);
    if (!first.has(webhookId)) first.set(webhookId, data);
    else if (!samePet(first.get(webhookId), data)) problems?.push(`other: ${webhookId} carried ${json(first.get(webhookId))}, then ${json(data)}`);
  }
  return first;
}

function byPetId(deliveries: Map<string, unknown>): Map<number, unknown> {
  return new Map([...deliveries.values()].map((pet) => [(pet as Pet | undefined)?.id ?? NaN, pet]));
}

/** The same fields with the same values. */
function samePet(a: unknown, b: unknown): boolean {
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => (a as Record<string, unknown>)[key] === (b as Record<string, unknown>)[key]);
}

const json = (value: unknown) => JSON.stringify(value);
