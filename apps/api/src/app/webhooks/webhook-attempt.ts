import type { WebhookConfig } from '../config/app-config';
import { checkWebhookUrl } from './address-policy';
import type { AttemptRecord, ClaimedMessage, DispatchEndpoint } from './outbox/webhook-outbox';
import { nextAttemptDelayMs } from './retry-schedule';
import { eventBody, messageId } from './webhook-event';
import { type DeliveryResult, sendWebhook } from './webhook-sender';
import { webhookHeaders } from './webhook-signature';

/**
 * One attempt to deliver a claimed message: its endpoint's URL checked again, the body signed as of `attemptedAt`, and
 * the POST. Never throws: a refused URL is a failed attempt, retried like any other.
 */
export async function attemptDelivery(
  endpoint: DispatchEndpoint,
  message: ClaimedMessage,
  attemptedAt: number,
  config: Pick<WebhookConfig, 'allowInsecure' | 'allowPrivateAddresses' | 'timeoutMs'>,
  signal: AbortSignal,
): Promise<DeliveryResult> {
  try {
    // Checked again at every attempt: the configuration may have changed since the endpoint was registered.
    checkWebhookUrl(endpoint.url, { allowInsecure: config.allowInsecure });
  } catch (error) {
    return { outcome: 'failed', statusCode: null, error: (error as Error).message.slice(0, 200), durationMs: 0 };
  }
  const body = eventBody(message.eventType, message.createdAt, message.pet);
  return sendWebhook({
    url: endpoint.url,
    headers: webhookHeaders({ id: messageId(endpoint.messageTag, message.id), timestamp: new Date(attemptedAt), body }, endpoint.secret),
    body,
    timeoutMs: config.timeoutMs,
    allowPrivate: config.allowPrivateAddresses,
    signal,
  });
}

/**
 * What an attempt's result makes of its message: delivered; retrying, due again after the schedule's next delay from
 * `now`; or failed for good once the schedule is spent.
 */
export function recordOf(message: ClaimedMessage, attemptedAt: number, result: DeliveryResult, schedule: readonly number[], now = Date.now()): AttemptRecord {
  const attempt = message.attempts + 1;
  const retryInMs = result.outcome === 'delivered' ? undefined : nextAttemptDelayMs(schedule, attempt);
  const outcome = result.outcome === 'delivered' ? 'delivered' : retryInMs === undefined ? 'failed' : 'retrying';
  return {
    messageId: message.id,
    endpointId: message.endpointId,
    attempt,
    attemptedAt,
    outcome,
    statusCode: result.statusCode,
    error: result.error,
    durationMs: result.durationMs,
    nextAttemptAt: retryInMs === undefined ? null : now + retryInMs,
    leaseUntil: message.leaseUntil,
  };
}
