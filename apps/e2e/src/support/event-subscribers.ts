import { setTimeout as sleep } from 'node:timers/promises';
import { PetstoreClient, type StreamedEvent } from '@petstore/client';

/** One event as a subscriber received it, and when (performance.now()). */
export interface Received {
  position: number;
  petId: number;
  name: string;
  at: number;
}

/** What a subscriber saw: its events as received (repeats kept), and its connections opened. */
export interface Subscriber {
  label: string;
  received: Received[];
  /** performance.now() of each time its stream opened. */
  opens: number[];
  stop: () => Promise<void>;
}

const received = ({ id, data }: StreamedEvent): Received => ({ position: id, petId: data.id, name: data.name, at: performance.now() });

/** A subscriber on @petstore/client's events(): the client reconnects, resumes with `after`, and deduplicates. */
export function clientSubscriber(label: string, baseUrl: string, apiKey: string): Subscriber {
  const subscriber: Subscriber = { label, received: [], opens: [], stop: async () => undefined };
  const done = new AbortController();
  const client = new PetstoreClient({ baseUrl, apiKey, maxRetryDelayMs: 1_000, logger: { warn: () => undefined } });
  const events = client.events({}, { signal: done.signal, onConnectionChange: ({ state }) => state === 'open' && subscriber.opens.push(performance.now()) });
  const following = (async () => {
    for await (const event of events) subscriber.received.push(received(event));
  })().catch((error: unknown) => {
    if (!done.signal.aborted) throw error;
  });
  subscriber.stop = async () => {
    done.abort();
    await following;
  };
  return subscriber;
}

/**
 * A subscriber as a browser's EventSource behaves: it reconnects after a short wait with `Last-Event-ID` set to the
 * last id it saw (an event's, or the position the stream named at its start), and keeps every event it is sent, so
 * that repeats show.
 */
export function lastEventIdSubscriber(label: string, url: string, apiKey: string): Subscriber {
  const subscriber: Subscriber = { label, received: [], opens: [], stop: async () => undefined };
  const done = new AbortController();
  let lastEventId: string | undefined;
  const following = (async () => {
    while (!done.signal.aborted) {
      try {
        const response = await fetch(url, {
          headers: { authorization: `Bearer ${apiKey}`, accept: 'text/event-stream', ...(lastEventId === undefined ? {} : { 'last-event-id': lastEventId }) },
          signal: done.signal,
        });
        if (response.status !== 200 || !response.body) throw new Error(`HTTP ${response.status}: ${await response.text()}`);
        subscriber.opens.push(performance.now());
        let buffer = '';
        const decoder = new TextDecoder();
        for await (const chunk of response.body) {
          buffer += decoder.decode(chunk, { stream: true });
          for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
            const fields = new Map(buffer.slice(0, end).split('\n').map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)] as const));
            buffer = buffer.slice(end + 2);
            if (fields.has('id')) lastEventId = fields.get('id');
            if (fields.get('event') === 'reset') throw new Error(`reset: ${fields.get('data')}`);
            const data = fields.get('data');
            if (fields.get('event') === 'pet.created' && data) subscriber.received.push(received({ id: Number(fields.get('id')), ...JSON.parse(data) }));
          }
        }
      } catch (error) {
        if (done.signal.aborted) return;
        if ((error as Error).message.startsWith('reset')) throw error;
      }
      await sleep(100);
    }
  })();
  subscriber.stop = async () => {
    done.abort();
    await following;
  };
  return subscriber;
}

/** Positions as a subscriber would keep them after deduplicating by id: the first of each, in the order received. */
export const deduplicated = (events: Received[]): Received[] => {
  const seen = new Set<number>();
  return events.filter(({ position }) => !seen.has(position) && seen.add(position));
};
