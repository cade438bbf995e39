import { createHmac, randomBytes } from 'node:crypto';

/** Standard Webhooks' mark of a symmetric signing secret, so that one is recognised wherever it is pasted. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

// The specification's bounds for a symmetric key: at least 192 bits, at most 512.
const KEY_BYTES = { min: 24, max: 64 };
const CANONICAL_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** A new signing secret for one endpoint: 256 random bits, serialised as Standard Webhooks specifies. */
export function generateWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + randomBytes(32).toString('base64');
}

/**
 * The signature headers of one attempt, so that a receiver can check the body and reject replays.
 * @see https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md#signature-scheme
 */
export function webhookHeaders(message: { id: string; timestamp: Date; body: string }, secret: string): Record<string, string> {
  // A full stop in the id would let one signed content be read as another.
  if (!message.id || message.id.includes('.')) throw new Error('A webhook id must be non-empty and contain no full stop.');
  const seconds = Math.floor(message.timestamp.getTime() / 1000);
  if (!Number.isSafeInteger(seconds)) throw new Error('A webhook timestamp must be a valid date.');
  const signature = createHmac('sha256', signingKey(secret)).update(`${message.id}.${seconds}.${message.body}`).digest('base64');
  return { 'webhook-id': message.id, 'webhook-timestamp': String(seconds), 'webhook-signature': `v1,${signature}` };
}

function signingKey(secret: string): Buffer {
  const encoded = secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : '';
  const key = CANONICAL_BASE64.test(encoded) ? Buffer.from(encoded, 'base64') : Buffer.alloc(0);
  // The message never quotes the secret: it ends up in logs.
  if (key.length < KEY_BYTES.min || key.length > KEY_BYTES.max) {
    throw new Error(`A webhook secret must be "${WEBHOOK_SECRET_PREFIX}" followed by the base64 of ${KEY_BYTES.min} to ${KEY_BYTES.max} bytes.`);
  }
  return key;
}
