import { startWebhookReceiver, type WebhookReceiver } from '@petstore/testing';
import { Webhook } from 'standardwebhooks';
import { KEY, reply, runCli, streamReply } from '../testing/run-cli';

const BASE = 'http://localhost:3000/v1';
const body = (id: number) => `{"type":"pet.created","timestamp":"2026-12-06T09:00:00.000Z","data":{"id":${id},"name":"Pet ${id}","categoryId":2,"status":"available"}}`;
const event = (id: number) => `id: ${id}\nevent: pet.created\ndata: ${body(id)}\n\n`;
/** Ctrl-C once `lines` events are on stdout. */
const afterLines = (lines: number) => ({ stdout }: { stdout: string }) => stdout.split('\n').length > lines;
const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

describe('events listen', () => {
  const receivers: WebhookReceiver[] = [];
  afterEach(async () => {
    for (const receiver of receivers.splice(0)) await receiver.close();
  });
  const receiver = async (answer?: (index: number) => number) => {
    const started = await startWebhookReceiver({ answer, verify: false });
    receivers.push(started);
    return started;
  };

  it('prints each event as a line for people until Ctrl-C, then exits 0, with its notices on stderr', async () => {
    const sut = await runCli(['events', 'listen'], { responses: [(init) => streamReply(`: keep-alive\n\n${event(41)}${event(42)}`, init)], stopWhen: afterLines(2) });

    expect(sut.code).toBe(0);
    expect(sut.stdout).toBe(
      '41  pet.created  2026-12-06T09:00:00.000Z  pet 41 "Pet 41", category 2, available\n' + '42  pet.created  2026-12-06T09:00:00.000Z  pet 42 "Pet 42", category 2, available\n',
    );
    expect(sut.stderr).toBe('Listening for events (Ctrl-C to stop).\n');
    expect(sut.sent).toEqual([expect.objectContaining({ method: 'GET', url: `${BASE}/events` })]);
    expect(sut.sent[0].headers).toMatchObject({ authorization: `Bearer ${KEY}`, accept: 'text/event-stream' });
  });

  it('prints one JSON object per line with --json, and starts after --after', async () => {
    const sut = await runCli(['events', 'listen', '--json', '--after', '7'], { responses: [(init) => streamReply(event(8), init)], stopWhen: afterLines(1) });

    expect(sut.code).toBe(0);
    expect(sut.sent[0].url).toBe(`${BASE}/events?after=7`);
    expect(sut.stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line))).toEqual([{ id: 8, ...JSON.parse(body(8)) }]);
    expect(sut.stderr).toBe('Listening for events after 7 (Ctrl-C to stop).\n');
  });

  it('resumes after the last event printed when the stream drops, saying so', async () => {
    const sut = await runCli(['events', 'listen'], {
      responses: [() => new Response(event(5), { headers: { 'content-type': 'text/event-stream' } }), (init) => streamReply(event(6), init)],
      stopWhen: afterLines(2),
    });

    expect(sut.code).toBe(0);
    expect(sut.sent.map(({ url }) => url)).toEqual([`${BASE}/events`, `${BASE}/events?after=5`]);
    expect(sut.stderr).toMatch(/^Listening for events \(Ctrl-C to stop\)\.\nConnection lost \(The service ended the event stream\.\); trying again in \d\.\d s\.\nListening for events after 5 \(Ctrl-C to stop\)\.\n$/);
  });

  it.each([['-1'], ['abc'], ['1.5'], ['9007199254740992']])('refuses --after %s as a usage error, sending nothing', async (after) => {
    const sut = await runCli(['events', 'listen', '--after', after]);

    expect(sut.code).toBe(2);
    expect(sut.stderr).toContain(`error: --after must be a whole number from 0 to 9007199254740991 (got ${after})`);
    expect(sut.sent).toEqual([]);
  });

  it('forwards each event to --forward-to as the service delivers a webhook, verifiable with the secret printed once', async () => {
    const hooks = await receiver();
    const sut = await runCli(['events', 'listen', '--forward-to', hooks.url], { responses: [(init) => streamReply(event(41) + event(42), init)], stopWhen: ({ stderr }) => stderr.includes('42 forwarded') });

    expect(sut.code).toBe(0);
    const secret = /shown once: (whsec_\S+)/.exec(sut.stderr)?.[1] as string;
    expect(sut.stderr.split(secret)).toHaveLength(2);
    expect(hooks.received.map(({ body: sent }) => sent)).toEqual([body(41), body(42)]);
    for (const [index, delivery] of hooks.received.entries()) {
      expect(new Webhook(secret).verify(delivery.body, delivery.headers as Record<string, string>)).toEqual(JSON.parse(body(41 + index)));
      expect(delivery.headers).toMatchObject({ 'webhook-id': `msg_stream_${41 + index}`, 'content-type': 'application/json' });
    }
    expect(sut.stderr).toMatch(/ {2}-> 41 forwarded: 204 in \d+ ms\n {2}-> 42 forwarded: 204 in \d+ ms\n$/);
    // stdout still holds the events, and only them.
    expect(sut.stdout.split('\n').filter(Boolean)).toHaveLength(2);
  });

  it('signs with --secret, or PETSTORE_FORWARD_SECRET, printing neither', async () => {
    for (const [args, env] of [
      [['--secret', SECRET], { PETSTORE_API_KEY: KEY }],
      [[], { PETSTORE_API_KEY: KEY, PETSTORE_FORWARD_SECRET: SECRET }],
    ] as const) {
      const hooks = await receiver();
      const sut = await runCli(['events', 'listen', '--forward-to', hooks.url, ...args], { env, responses: [(init) => streamReply(event(3), init)], stopWhen: ({ stderr }) => stderr.includes('forwarded') });

      expect(sut.code).toBe(0);
      expect(new Webhook(SECRET).verify(hooks.received[0].body, hooks.received[0].headers as Record<string, string>)).toEqual(JSON.parse(body(3)));
      expect(sut.stderr).not.toContain(SECRET);
      expect(sut.stderr).toContain(`Forwarding to ${hooks.url}, signed with the secret given.`);
    }
  });

  it('says which event a receiver refused or could not take, and how to send it again, and goes on', async () => {
    const hooks = await receiver((index) => (index === 0 ? 500 : 200));
    const sut = await runCli(['events', 'listen', '--forward-to', hooks.url], { responses: [(init) => streamReply(event(9) + event(10), init)], stopWhen: ({ stderr }) => stderr.includes('10 forwarded') });

    expect(sut.code).toBe(0);
    expect(sut.stderr).toMatch(/ {2}-> 9 refused by the receiver: 500 in \d+ ms; send it again with --after 8\n {2}-> 10 forwarded: 200 in \d+ ms\n/);

    const closed = await receiver();
    await closed.close();
    receivers.pop();
    const unreachable = await runCli(['events', 'listen', '--forward-to', closed.url], { responses: [(init) => streamReply(event(11), init)], stopWhen: ({ stderr }) => stderr.includes('not delivered') });
    expect(unreachable.stderr).toMatch(/ {2}-> 11 not delivered: .*ECONNREFUSED.*; send it again with --after 10\n/);
  });

  it.each([
    [['--forward-to', 'ftp://localhost/hooks'], '--forward-to must be an http or https URL such as http://localhost:8080/hooks (got ftp://localhost/hooks)'],
    [['--forward-to', 'http://localhost:8080/hooks', '--secret', 'whsec_c2hvcnQ='], 'the signing secret must be "whsec_" followed by the base64 of 24 to 64 bytes'],
    [['--forward-to', 'http://localhost:8080/hooks', '--secret', 'hunter2'], 'the signing secret must be "whsec_"'],
  ])('refuses %j as a usage error', async (args, message) => {
    const sut = await runCli(['events', 'listen', ...args]);

    expect(sut.code).toBe(2);
    expect(sut.stderr).toContain(`error: ${message}`);
    expect(sut.sent).toEqual([]);
  });

  it('exits 1 with what to do when the events after --after are no longer kept', async () => {
    const sut = await runCli(['events', 'listen', '--after', '3'], { responses: [(init) => streamReply('event: reset\ndata: {"oldest":120}\n\n', init)] });

    expect(sut.code).toBe(1);
    expect(sut.stderr).toContain(
      'error: the service no longer keeps the events after 3 (the oldest it keeps is 120); run again with --after 119 for every event it keeps, or without --after for new ones only\n',
    );
  });

  it('names the scope a refused key lacks, in the words of this command', async () => {
    const sut = await runCli(['events', 'listen'], { responses: [reply(403, { code: 'insufficient_scope', message: 'No.', status: 403 })] });

    expect(sut.code).toBe(1);
    expect(sut.stderr).toBe(
      "error: the API key in PETSTORE_API_KEY does not hold the pets:read scope that 'petstore events listen' needs (insufficient_scope, HTTP 403); use a key that holds pets:read\n",
    );
  });
});
