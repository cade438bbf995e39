import { request as httpRequest } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { startWebhookReceiver, type WebhookReceiver, type WebhookReceiverOptions } from './webhook-receiver';

const receivers: WebhookReceiver[] = [];
const start = async (options?: WebhookReceiverOptions) => {
  const receiver = await startWebhookReceiver(options);
  receivers.push(receiver);
  return receiver;
};
afterEach(async () => {
  for (const receiver of receivers.splice(0)) await receiver.close();
});

let sent = 0;
/** A pet.created as the service sends it, signed with `secret`; a new webhook-id each time unless given. */
function signed(secret: string, webhookId = `msg_${++sent}`) {
  const now = new Date();
  const body = JSON.stringify({ type: 'pet.created', timestamp: now.toISOString(), data: { id: sent, name: 'Rex' } });
  const signature = new Webhook(secret).sign(webhookId, now, body);
  const headers = { 'content-type': 'application/json', 'webhook-id': webhookId, 'webhook-timestamp': String(Math.floor(now.getTime() / 1000)), 'webhook-signature': signature };
  return { body, headers };
}

const post = async (receiver: WebhookReceiver, { body, headers }: ReturnType<typeof signed>) =>
  (await fetch(receiver.url, { method: 'POST', headers, body })).status;

/** A delivery over a connection of its own, whose local port is known (the receiver's `openFrom`), left open. */
function postOpen(receiver: WebhookReceiver, { body, headers }: ReturnType<typeof signed>) {
  const request = httpRequest(receiver.url, { method: 'POST', headers, agent: false });
  request.on('error', () => undefined); // the test cuts it
  const port = new Promise<number>((resolve) => request.on('socket', (socket) => socket.on('connect', () => resolve(socket.localPort ?? 0))));
  const status = new Promise<number>((resolve) => request.on('response', (response) => resolve(response.resume().statusCode ?? 0)));
  request.end(body);
  return { request, port, status };
}

describe('startWebhookReceiver', () => {
  it('records each request with its headers and its body as sent, answers 204 and counts it delivered', async () => {
    const receiver = await start();
    const delivery = signed(receiver.secret);
    expect(await post(receiver, delivery)).toBe(204);
    expect(receiver.received).toEqual([
      expect.objectContaining({ webhookId: delivery.headers['webhook-id'], body: delivery.body, event: JSON.parse(delivery.body), answered: 204 }),
    ]);
    const [{ headers }] = receiver.received;
    // Everything a test needs to verify the signature itself, with the secret the service gave the endpoint.
    expect(new Webhook(receiver.secret).verify(receiver.received[0].body, headers as Record<string, string>)).toEqual(JSON.parse(delivery.body));
    expect(receiver.delivered()).toEqual(receiver.received);
    expect(receiver.counts()).toEqual({ received: 1, delivered: 1, duplicates: 0, badSignatures: 0, cut: 0 });
    expect(receiver.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/hooks$/);
    expect(receiver.secret).toMatch(/^whsec_/);
  });

  it('answers with the status the test chooses from the request number, and counts a 2xx of a webhook-id twice as a duplicate', async () => {
    const receiver = await start({ answer: (index) => (index < 2 ? 500 : 200) });
    const delivery = signed(receiver.secret);
    const statuses = [];
    for (let attempt = 0; attempt < 4; attempt++) statuses.push(await post(receiver, delivery));
    expect(statuses).toEqual([500, 500, 200, 200]);
    expect(receiver.received.map(({ answered }) => answered)).toEqual([500, 500, 200, 200]);
    expect(receiver.delivered()).toHaveLength(2);
    expect(receiver.counts()).toMatchObject({ received: 4, delivered: 2, duplicates: 1 });
  });

  it('with verify, answers 401 to a signature of another secret without asking `answer`, and takes in a good one', async () => {
    const answer = jest.fn(() => 202);
    const receiver = await start({ verify: true, answer });
    expect(await post(receiver, signed(`whsec_${Buffer.alloc(32, 7).toString('base64')}`))).toBe(401);
    expect(await post(receiver, signed(receiver.secret))).toBe(202);
    expect(answer).toHaveBeenCalledTimes(1);
    expect(receiver.received.map(({ answered, badSignature }) => ({ answered, bad: badSignature !== undefined }))).toEqual([
      { answered: 401, bad: true },
      { answered: 202, bad: false },
    ]);
    expect(receiver.received[0].badSignature).toMatch(/signature/i);
    expect(receiver.counts()).toMatchObject({ received: 2, delivered: 1, badSignatures: 1 });
  });

  it('leaves a request it answers `hang` unanswered, recorded from its arrival, until close cuts it', async () => {
    const receiver = await start({ answer: () => 'hang' });
    const answered = fetch(receiver.url, { method: 'POST', body: '{}' }).then(
      (response) => response.status,
      () => 'cut by close',
    );
    expect(await receiver.waitFor(() => receiver.received.length === 1)).toBe(true);
    expect(receiver.received[0]).toMatchObject({ answered: 'hang', event: {} });
    await receiver.close();
    expect(await answered).toBe('cut by close');
    expect(receiver.counts()).toMatchObject({ received: 1, delivered: 0, cut: 0 });
  });

  it('with hold, keeps requests in flight, known by their senders’ ports, until release; one whose sender left is cut', async () => {
    const receiver = await start({ verify: true, hold: true, delayMs: 50 });
    const kept = postOpen(receiver, signed(receiver.secret));
    const left = postOpen(receiver, signed(receiver.secret));
    const ports = await Promise.all([kept.port, left.port]);
    expect(await receiver.waitFor(() => receiver.openFrom().length === 2)).toBe(true);
    expect(receiver.openFrom().sort((a, b) => a - b)).toEqual(ports.sort((a, b) => a - b));
    left.request.destroy();
    // Counted when the connection closes, not when the work would have ended.
    expect(await receiver.waitFor(() => receiver.counts().cut === 1)).toBe(true);
    expect(receiver.openFrom()).toEqual([await kept.port]);
    expect(receiver.counts().delivered).toBe(0);
    receiver.release();
    expect(await kept.status).toBe(204);
    expect(receiver.received.map(({ answered }) => answered)).toEqual([204, 'cut']);
    expect(receiver.counts()).toMatchObject({ received: 2, delivered: 1, cut: 1 });
    expect(receiver.openFrom()).toEqual([]);
  });

  it('waits for N deliveries, answering true as soon as they are in, and false when the deadline passes without', async () => {
    const receiver = await start();
    const waited = receiver.waitFor(() => receiver.counts().delivered >= 3);
    await Promise.all([1, 2, 3].map(() => post(receiver, signed(receiver.secret))));
    expect(await waited).toBe(true);
    // Already true: at once.
    expect(await receiver.waitFor(() => receiver.counts().delivered >= 3, 0)).toBe(true);
    // Nothing more is sent: false, however fast or slow the machine.
    expect(await receiver.waitFor(() => receiver.counts().delivered >= 4, 100)).toBe(false);
  });

  it('with record: false, keeps the counts and not the requests', async () => {
    const receiver = await start({ record: false });
    await post(receiver, signed(receiver.secret));
    await post(receiver, signed(receiver.secret));
    expect(receiver.received).toEqual([]);
    expect(receiver.delivered()).toEqual([]);
    expect(receiver.counts()).toMatchObject({ received: 2, delivered: 2 });
  });
});
