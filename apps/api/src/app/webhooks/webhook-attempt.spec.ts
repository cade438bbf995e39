import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PetStatus } from '@petstore/contract';
import { Webhook } from 'standardwebhooks';
import type { ClaimedMessage, DispatchEndpoint } from './outbox/webhook-outbox';
import { attemptDelivery, recordOf } from './webhook-attempt';
import type { DeliveryResult } from './webhook-sender';
import { generateWebhookSecret } from './webhook-signature';

const claimed = (attempts: number): ClaimedMessage => ({
  id: 42,
  endpointId: 7,
  eventType: 'pet.created',
  createdAt: Date.parse('2026-11-26T18:00:00.000Z'),
  attempts,
  leaseUntil: 1_000_000,
  pet: { id: 3, name: 'Rex', categoryId: 1, status: PetStatus.Available },
});

describe('one webhook attempt', () => {
  describe(attemptDelivery.name, () => {
    let server: Server;
    let received: Array<{ headers: IncomingMessage['headers']; body: string }>;
    let url: string;

    beforeEach(async () => {
      received = [];
      server = createServer(async (request, response) => {
        const chunks: Buffer[] = [];
        for await (const chunk of request) chunks.push(chunk as Buffer);
        received.push({ headers: request.headers, body: Buffer.concat(chunks).toString() });
        response.end();
      });
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
    });

    afterEach(async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    });

    const endpointAt = (secret: string): DispatchEndpoint => ({ id: 7, url, secret, messageTag: '00ff00ff00ff00ff' });
    const local = { allowInsecure: true, allowPrivateAddresses: true, timeoutMs: 5_000 };

    it('sends the event signed with the endpoint’s secret, with the message’s id and the attempt’s time', async () => {
      const secret = generateWebhookSecret();
      // Now: the reference verifier refuses a timestamp more than five minutes from its clock.
      const attemptedAt = Date.now() - 1_500;
      const result = await attemptDelivery(endpointAt(secret), claimed(0), attemptedAt, local, new AbortController().signal);

      expect(result).toMatchObject({ outcome: 'delivered', statusCode: 200, error: null });
      expect(received).toHaveLength(1);
      const [{ headers, body }] = received;
      expect(headers['webhook-id']).toBe('msg_00ff00ff00ff00ff_42');
      expect(headers['webhook-timestamp']).toBe(String(Math.floor(attemptedAt / 1000)));
      expect(new Webhook(secret).verify(body, headers as Record<string, string>)).toEqual({
        type: 'pet.created',
        timestamp: '2026-11-26T18:00:00.000Z',
        data: { id: 3, name: 'Rex', categoryId: 1, status: 'available' },
      });
    });

    it('fails, without sending, a URL that the configuration refuses now', async () => {
      const result = await attemptDelivery(endpointAt(generateWebhookSecret()), claimed(0), Date.now(), { ...local, allowInsecure: false }, new AbortController().signal);

      expect(result).toEqual({ outcome: 'failed', statusCode: null, error: expect.stringMatching(/must use https/), durationMs: 0 });
      expect(received).toHaveLength(0);
    });
  });

  describe(recordOf.name, () => {
    const attemptedAt = 500_000;
    const now = 600_000;
    const delivered: DeliveryResult = { outcome: 'delivered', statusCode: 204, error: null, durationMs: 12 };
    const refused: DeliveryResult = { outcome: 'failed', statusCode: 503, error: 'status 503', durationMs: 34 };

    it('records a delivery, with nothing due again', () => {
      expect(recordOf(claimed(2), attemptedAt, delivered, [5, 300], now)).toEqual({
        messageId: 42,
        endpointId: 7,
        attempt: 3,
        attemptedAt,
        outcome: 'delivered',
        statusCode: 204,
        error: null,
        durationMs: 12,
        nextAttemptAt: null,
        leaseUntil: 1_000_000,
      });
    });

    it('retries a failure after the schedule’s delay for the attempts made, counted from now', () => {
      expect(recordOf(claimed(0), attemptedAt, refused, [5, 300], now)).toMatchObject({ attempt: 1, outcome: 'retrying', nextAttemptAt: now + 5_000 });
      expect(recordOf(claimed(1), attemptedAt, refused, [5, 300], now)).toMatchObject({
        attempt: 2,
        outcome: 'retrying',
        statusCode: 503,
        error: 'status 503',
        durationMs: 34,
        nextAttemptAt: now + 300_000,
      });
    });

    it('fails the message for good once the schedule is spent', () => {
      expect(recordOf(claimed(2), attemptedAt, refused, [5, 300], now)).toMatchObject({ attempt: 3, outcome: 'failed', nextAttemptAt: null });
      expect(recordOf(claimed(0), attemptedAt, refused, [], now)).toMatchObject({ attempt: 1, outcome: 'failed', nextAttemptAt: null });
    });
  });
});
