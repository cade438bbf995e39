import { type BeforeApplicationShutdown, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { setMaxListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AppConfig, WebhookConfig } from '../config/app-config';
import { DatabaseConnection } from '../database/database-connection';
import { Metrics } from '../metrics/metrics';
import { Repeating } from '../timing/repeating';
import { ThrottledWarning } from '../timing/throttled-warning';
import { ApiPressure } from './api-pressure';
import { type ClaimedMessage, type DispatchEndpoint, WebhookOutbox } from './outbox/webhook-outbox';
import { attemptDelivery } from './webhook-attempt';
import { WebhookAttemptRecorder } from './webhook-attempt-recorder';
import { messageId } from './webhook-event';
import type { DeliveryResult } from './webhook-sender';

/** How long after a poll the outbox is looked at again for due messages (and for endpoints added by `npm run webhooks`). */
const POLL_MS = 200;
/** Attempts in flight per endpoint and instance: a slow endpoint holds only its own. */
const PER_ENDPOINT = 32;
/** A claim is renewed once at most this many of an endpoint's attempts are left in flight, so claims come in batches. */
const CLAIM_AGAIN_AT = PER_ENDPOINT / 2;
/**
 * Attempts in flight per endpoint and instance while the API saturates the event loop (see ApiPressure), claimed only
 * by the poll: a trickle (at most this many per poll and endpoint) that keeps the oldest messages moving.
 */
const PER_ENDPOINT_UNDER_PRESSURE = 8;
/** Beyond the attempt's deadline, the time to record its outcome before another instance may claim the message. */
const LEASE_MARGIN_MS = 20_000;
/** At shutdown, how long attempts in flight may still finish (and be recorded) before they are cancelled. */
const FINISH_AT_SHUTDOWN_MS = 1_000;
/** A failing database is reported once per this, not once per poll. */
const WARN_EVERY_MS = 60_000;

/**
 * Delivers the outbox's messages, at least once: polls for each endpoint's due messages, claims them with a lease, so
 * that each is attempted by one instance at a time, and hands each to an attempt (attemptDelivery), whose outcome
 * WebhookAttemptRecorder records. Every instance runs one; with no endpoint registered it only looks at an empty table,
 * 200 ms after each look. Endpoints never wait for each other: each has its own attempts in flight. While the API
 * saturates the event loop, deliveries slow to a trickle and the outbox holds the rest (ApiPressure).
 */
@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly failures = new ThrottledWarning(new Logger(WebhookDispatcher.name), WARN_EVERY_MS);
  private readonly polls = new Repeating(POLL_MS, () => {
    this.yielding = this.pressure.sample();
    return this.poll();
  });
  private readonly config: WebhookConfig;
  private readonly inFlight = new Map<number, number>();
  /** Endpoints whose last claim filled all their room: more of their messages may be due. */
  private readonly backlogged = new Set<number>();
  private readonly attempts = new Set<Promise<void>>();
  /** Messages claimed by this instance and not yet recorded: released at shutdown for another instance to take. */
  private readonly claimed = new Set<number>();
  private readonly stop = new AbortController();
  private stopping = false;
  /** The poll under way, if any: at shutdown, its claims must be known before they are released. */
  private polling?: Promise<void>;
  // Stryker disable next-line BooleanLiteral: each round of a poll clears it before it looks.
  private pollAgain = false;
  /** Whether the API saturated the event loop during the last poll interval: deliveries yield to it. */
  private yielding = false;

  constructor(
    config: ConfigService<AppConfig, true>,
    private readonly outbox: WebhookOutbox,
    private readonly database: DatabaseConnection,
    metrics: Metrics,
    private readonly pressure: ApiPressure,
    private readonly recorder: WebhookAttemptRecorder,
  ) {
    this.config = config.get('webhooks', { infer: true });
    // Every attempt in flight listens to it, many more than the warning level of 10 some Node.js versions keep.
    // Stryker disable next-line all: Node.js 26, which the suite runs on, sets no limit on an AbortSignal's listeners.
    setMaxListeners(0, this.stop.signal);
    metrics.gauge('petstore_webhook_dispatch_yielding', 'Whether deliveries are held back (1) because the API saturates the event loop.', () =>
      Number(this.yielding),
    );
  }

  onApplicationBootstrap(): void {
    this.polls.start();
  }

  /**
   * Before the database closes: stops claiming, lets the attempts in flight finish for a moment, cancels the rest (their
   * receivers may have the message: it is sent again, which at-least-once allows) and releases what this instance
   * claimed and did not record, so that another instance need not wait for the lease.
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    this.polls.stop();
    await this.polling;
    await Promise.race([Promise.allSettled(this.attempts), sleep(FINISH_AT_SHUTDOWN_MS, undefined, { ref: false })]);
    this.stop.abort();
    await Promise.allSettled(this.attempts);
    const unrecorded = [...this.claimed];
    if (unrecorded.length > 0) await this.database.run(() => this.outbox.release(unrecorded)).catch(() => undefined);
  }

  /** Claims what is due for every endpoint with room, and starts its attempts; one poll at a time. */
  poll(): Promise<void> {
    if (this.polling) {
      this.pollAgain = true;
      return this.polling;
    }
    this.polling = this.pollUntilDone().finally(() => (this.polling = undefined));
    return this.polling;
  }

  private async pollUntilDone(): Promise<void> {
    try {
      do {
        this.pollAgain = false;
        if (this.stopping || !this.database.serving) return;
        const endpoints = await this.database.run(() => this.outbox.endpoints());
        for (const endpoint of endpoints) await this.claimFor(endpoint, Date.now());
      } while (this.pollAgain);
    } catch (error) {
      this.failures.warn(`Webhook outbox not polled: ${(error as Error).message}`);
    }
  }

  private async claimFor(endpoint: DispatchEndpoint, now: number): Promise<void> {
    const room = (this.yielding ? PER_ENDPOINT_UNDER_PRESSURE : PER_ENDPOINT) - (this.inFlight.get(endpoint.id) ?? 0);
    if (room <= 0 || this.stopping) return;
    const leaseUntil = now + this.config.timeoutMs + LEASE_MARGIN_MS;
    const messages = await this.database.run(() => this.outbox.claim(endpoint.id, now, leaseUntil, room));
    if (this.stopping) {
      // Claimed as the instance stops: released with the rest rather than attempted.
      for (const message of messages) this.claimed.add(message.id);
      return;
    }
    if (messages.length === room) this.backlogged.add(endpoint.id);
    else this.backlogged.delete(endpoint.id);
    for (const message of messages) this.track(this.attempt(endpoint, message));
  }

  private track(attempt: Promise<void>): void {
    this.attempts.add(attempt);
    void attempt.finally(() => this.attempts.delete(attempt));
  }

  private async attempt(endpoint: DispatchEndpoint, message: ClaimedMessage): Promise<void> {
    this.claimed.add(message.id);
    this.inFlight.set(endpoint.id, (this.inFlight.get(endpoint.id) ?? 0) + 1);
    const attemptedAt = Date.now();
    let result: DeliveryResult;
    try {
      result = await attemptDelivery(endpoint, message, attemptedAt, this.config, this.stop.signal);
    } finally {
      // The room is the endpoint's to use again at once: the outcome's commit is batched with others' and holds no
      // connection to the endpoint (the message stays claimed until it is recorded).
      const left = (this.inFlight.get(endpoint.id) ?? 1) - 1;
      this.inFlight.set(endpoint.id, left);
      // A backlog is worked through at the speed of the endpoint, not of the poll, unless the API needs the loop.
      if (left <= CLAIM_AGAIN_AT && this.backlogged.has(endpoint.id) && !this.yielding) void this.poll();
    }
    if (this.stop.signal.aborted) return;
    try {
      await this.recorder.record(endpoint, message, attemptedAt, result);
      this.claimed.delete(message.id);
    } catch (error) {
      // Not recorded (the database failed): the lease runs out and the message is attempted again.
      this.failures.warn(`Webhook attempt of ${messageId(endpoint.messageTag, message.id)} not recorded: ${(error as Error).message}`);
    }
  }
}
