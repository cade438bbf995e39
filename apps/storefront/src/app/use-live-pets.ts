import { type ConnectionChange, EventsResetError, type PetstoreClient } from '@petstore/client';
import type { Pet } from '@petstore/contract';
import { useEffect, useRef, useState } from 'react';

/** How the page follows the pets added elsewhere: what it has to say about it, if anything. */
export type Following =
  /** Not following, opening for the first time, or open and never dropped: nothing to say. */
  | { kind: 'quiet' }
  /** The stream dropped after it was open; the client opens it again by itself. */
  | { kind: 'lost' }
  /** Open again after a drop. */
  | { kind: 'back' }
  /** Refused for good (a key no longer allowed, say): no pet added elsewhere shows by itself any more. */
  | { kind: 'stopped'; error: unknown };

interface Handlers {
  /**
   * A stream opened afresh (not resumed): it starts after what was stored when it opened, so a pet created after the
   * list was read and before that is in neither.
   */
  onStarted(): void;
  /** A pet created anywhere, this page too; each once. */
  onPet(pet: Pet): void;
  /** Pets were missed (the service reset the stream): the list may lack some. */
  onMissed(): void;
}

/**
 * Follows the pets created anywhere (the client's `events()`) while `connected`: one stream for the client, opened
 * once the service has answered with its key, closed when the client changes or the page goes. A filter changed does
 * not reopen it: the handlers are the latest render's.
 */
export function useLivePets(client: PetstoreClient | undefined, connected: boolean, handlers: Handlers): Following {
  const [following, setFollowing] = useState<Following>({ kind: 'quiet' });
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  });

  useEffect(() => {
    if (!client || !connected) return;
    const controller = new AbortController();
    void follow(client, controller.signal, latest, setFollowing);
    return () => {
      controller.abort();
      setFollowing({ kind: 'quiet' });
    };
  }, [client, connected]);

  return following;
}

async function follow(client: PetstoreClient, signal: AbortSignal, handlers: { current: Handlers }, say: (following: Following) => void): Promise<void> {
  // Only a stream that was open can be lost: a first connection that takes a few tries says nothing.
  let opened = false;
  let lost = false;
  // Each `events()` without a position starts afresh when it first opens; its later opens resume where it was.
  let fresh = true;
  const onConnectionChange = (change: ConnectionChange) => {
    if (change.state === 'open') {
      if (fresh) handlers.current.onStarted();
      fresh = false;
      if (lost) say({ kind: 'back' });
      opened = true;
      lost = false;
    } else if (opened && !lost) {
      lost = true;
      say({ kind: 'lost' });
    }
  };
  for (;;) {
    fresh = true;
    try {
      for await (const event of client.events({}, { signal, onConnectionChange })) handlers.current.onPet(event.data);
    } catch (error) {
      if (signal.aborted) return;
      if (!(error instanceof EventsResetError)) return say({ kind: 'stopped', error });
      // The events since the drop are gone: the service's list is the truth, then follow on from now.
      handlers.current.onMissed();
    }
  }
}
