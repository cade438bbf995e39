import type { ParameterObject, SchemaObject } from '@nestjs/swagger';
import { type Pet, PetStatus } from '@petstore/contract';
import type { WebhookConfig } from '../config/app-config';
import { eventBody, messageId } from '../webhooks/webhook-event';
import { webhookHeaders } from '../webhooks/webhook-signature';

/** The name of the event body's schema in `components`. */
export const PET_CREATED_EVENT = 'PetCreatedEvent';

// One message as the service sends it, signed with a made-up secret: the examples are real headers of a real body.
const EXAMPLE_PET: Pet = { id: 42, name: 'Rex', categoryId: 1, status: PetStatus.Available };
const EXAMPLE_BODY = eventBody('pet.created', Date.UTC(2030, 0, 1, 12, 0, 0), EXAMPLE_PET);
const EXAMPLE_HEADERS = webhookHeaders(
  { id: messageId('4f1c2a9e8b7d6035', 42), timestamp: new Date(Date.UTC(2030, 0, 1, 12, 0, 0)), body: EXAMPLE_BODY },
  `whsec_${Buffer.alloc(32, 7).toString('base64')}`,
);

/** The body of a `pet.created` message. */
export const petCreatedEventSchema = (petSchema: string): SchemaObject => ({
  type: 'object',
  description: 'The body of a `pet.created` webhook: the event type, when it happened, and the pet as `createPet` answered it.',
  required: ['type', 'timestamp', 'data'],
  properties: {
    type: { type: 'string', enum: ['pet.created'], description: 'The event type.', example: 'pet.created' },
    timestamp: {
      type: 'string',
      format: 'date-time',
      maxLength: 24,
      description: 'When the pet was created: RFC 3339, UTC, in milliseconds.',
      example: '2030-01-01T12:00:00.000Z',
    },
    data: { $ref: petSchema },
  },
});

const header = (name: string, description: string, schema: SchemaObject): ParameterObject => ({
  name,
  in: 'header',
  required: true,
  description,
  schema: { ...schema, example: EXAMPLE_HEADERS[name] },
});

const HEADERS: ParameterObject[] = [
  header('webhook-id', 'The message: the same on every attempt of it, and never the same for two messages. Deduplicate by it.', {
    type: 'string',
    maxLength: 37,
    pattern: '^msg_[0-9a-f]{16}_[1-9][0-9]*$',
  }),
  header('webhook-timestamp', 'When this attempt was signed, in seconds since 1970. Refuse one too far from your clock (5 minutes).', {
    type: 'string',
    maxLength: 12,
    pattern: '^[0-9]+$',
  }),
  header(
    'webhook-signature',
    '`v1,` and the base64 HMAC-SHA256, keyed with the endpoint’s secret, of `<webhook-id>.<webhook-timestamp>.<body>`.',
    { type: 'string', maxLength: 47, pattern: '^v1,[A-Za-z0-9+/]{43}=$' },
  ),
];

/** `5 s`, `5 min`, `2 h`: the units the retry schedule is thought in. */
function duration(seconds: number): string {
  if (seconds >= 3600 && seconds % 3600 === 0) return `${seconds / 3600} h`;
  if (seconds >= 60 && seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}

/**
 * The events the service sends, the OpenAPI 3.1 document's `webhooks`: how each message is signed, when it is retried,
 * and what its body is.
 */
export function webhooksDescription(config: Pick<WebhookConfig, 'retryScheduleSeconds' | 'timeoutMs'>, eventSchema: string) {
  const timeout = duration(config.timeoutMs / 1000);
  const waits = config.retryScheduleSeconds.map(duration);
  const retries =
    waits.length === 0
      ? 'A message not delivered at the first attempt has failed: it is not retried.'
      : `A message not delivered is retried ${waits.length} ${waits.length === 1 ? 'time' : 'times'}, ` +
        `waiting ${waits.length === 1 ? waits[0] : `${waits.slice(0, -1).join(', ')} and ${waits[waits.length - 1]}`} ` +
        'after the failed attempts in turn; then it has failed.';
  return {
    'pet.created': {
      post: {
        operationId: 'petCreated',
        summary: 'A pet was created',
        description:
          'POSTed to every endpoint registered for `pet.created` once the pet is stored. The operator registers an ' +
          'endpoint with `npm run webhooks -- add --url https://…`, which prints its signing secret once (`whsec_…`).\n\n' +
          'Each message is signed as [Standard Webhooks](https://www.standardwebhooks.com/) specifies, with the ' +
          '`webhook-id`, `webhook-timestamp` and `webhook-signature` headers: verify the signature with the secret, over ' +
          'the body exactly as received, before trusting it (any Standard Webhooks library does, e.g. `standardwebhooks` on npm).\n\n' +
          `${retries} Delivery is at least once: a message may arrive more than once, always with the same \`webhook-id\`, ` +
          'so deduplicate by it. Messages of different pets may arrive out of order.',
        security: [],
        parameters: HEADERS,
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: eventSchema }, example: JSON.parse(EXAMPLE_BODY) as unknown } },
        },
        responses: {
          '2XX': { description: `Delivered. Any other answer, or none within ${timeout}, is retried.` },
        },
      },
    },
  };
}
