import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { generateWebhookSecret, webhookHeaders, WEBHOOK_SECRET_PREFIX } from './webhook-signature';

describe('webhook signature', () => {
  const body = '{"type":"pet.created","timestamp":"2026-11-26T18:00:00.000Z","data":{"id":1,"name":"Rex \u00e9t\u00e9"}}';
  const message = (timestamp = new Date()) => ({ id: 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W', timestamp, body });

  describe(generateWebhookSecret.name, () => {
    it('issues the prefix and the base64 of 32 random bytes, a new one each time', () => {
      const secret = generateWebhookSecret();
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(Buffer.from(secret.slice(WEBHOOK_SECRET_PREFIX.length), 'base64')).toHaveLength(32);
      expect(generateWebhookSecret()).not.toBe(secret);
    });
  });

  describe(webhookHeaders.name, () => {
    it('signs what the reference verifier accepts', () => {
      const secret = generateWebhookSecret();
      const headers = webhookHeaders(message(), secret);
      expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    });

    it('matches the reference implementation on its own test vector', () => {
      const headers = webhookHeaders(
        { id: 'msg_p5jXN8AQM9LWM0D4loKWxJek', timestamp: new Date(1614265330_500), body: '{"test": 2432232314}' },
        'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      );
      expect(headers).toEqual({
        'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
        'webhook-timestamp': '1614265330',
        'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
      });
    });

    type Tamper = (headers: Record<string, string>) => [string, Record<string, string>];
    it.each<[string, Tamper]>([
      ['a tampered body', (headers) => [body.replace('Rex', 'Max'), headers]],
      ['another id', (headers) => [body, { ...headers, 'webhook-id': 'msg_other' }]],
      ['another timestamp', (headers) => [body, { ...headers, 'webhook-timestamp': String(Number(headers['webhook-timestamp']) - 1) }]],
    ])('fails verification with %s', (_label, tamper) => {
      const secret = generateWebhookSecret();
      const [tamperedBody, tamperedHeaders] = tamper(webhookHeaders(message(), secret));
      expect(() => new Webhook(secret).verify(tamperedBody, tamperedHeaders)).toThrow(WebhookVerificationError);
    });

    it('fails verification with another endpoint’s secret', () => {
      const headers = webhookHeaders(message(), generateWebhookSecret());
      expect(() => new Webhook(generateWebhookSecret()).verify(body, headers)).toThrow(WebhookVerificationError);
    });

    it('stamps the attempt time in whole seconds', () => {
      const headers = webhookHeaders(message(new Date('2026-11-26T18:00:00.999Z')), generateWebhookSecret());
      expect(headers['webhook-timestamp']).toBe('1795716000');
    });

    it.each([
      ['no prefix', Buffer.alloc(32, 1).toString('base64')],
      ['another prefix', `whsk_${Buffer.alloc(32, 1).toString('base64')}`],
      ['fewer than 24 bytes', `whsec_${Buffer.alloc(23, 1).toString('base64')}`],
      ['more than 64 bytes', `whsec_${Buffer.alloc(65, 1).toString('base64')}`],
      ['base64url', `whsec_${Buffer.alloc(32, 0xfb).toString('base64url')}`],
      ['stray characters', `whsec_${Buffer.alloc(32, 1).toString('base64')} `],
      ['nothing', ''],
    ])('refuses a secret with %s, without quoting it', (_label, secret) => {
      expect(() => webhookHeaders(message(), secret)).toThrow(/whsec_.*base64 of 24 to 64 bytes/);
      if (secret) expect(() => webhookHeaders(message(), secret)).not.toThrow(secret);
    });

    it.each(['', 'msg.1'])('refuses the id %j, which would make the signed content ambiguous', (id) => {
      expect(() => webhookHeaders({ ...message(), id }, generateWebhookSecret())).toThrow(/webhook id/);
    });

    it('refuses an invalid date', () => {
      expect(() => webhookHeaders(message(new Date(Number.NaN)), generateWebhookSecret())).toThrow(/timestamp/);
    });
  });
});
