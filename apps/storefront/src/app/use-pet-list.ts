import type { PetstoreClient } from '@petstore/client';
import { LIST_LIMIT, passesFilters, type Pet, type PetFilters, sameFilters } from '@petstore/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { filtersKey } from './list-filters';

export interface PetList {
  /** The pages shown, with the pets added here and, once every page is shown, those added elsewhere. */
  pets: Pet[];
  /** Another page exists: "Load more" asks for it. */
  more: boolean;
  loading: boolean;
  /** The service has answered a page for this client (whatever the filter): the key works. */
  answered: boolean;
  /** Why the last page asked for failed, as the client threw it. */
  error?: unknown;
  loadMore(): void;
  /** A pet created on this page: listed at once when it passes the filters. */
  added(pet: Pet): void;
  /**
   * A pet created anywhere (the event stream), this page too: when it passes the filters, listed once every page is
   * shown, since new pets come last; until then it waits.
   */
  arrived(pet: Pet): void;
  /** Pets added elsewhere that pass the filters, not shown: their place is after pages not loaded yet. */
  waiting: Pet[];
  /** The last pet added elsewhere that was listed at once when it came, to announce. */
  arrival?: Pet;
  /** Loads every page left, so that the waiting pets are shown; true once they are. */
  showWaiting(): Promise<boolean>;
  /** Lists afresh from the first page: events were missed, and the service's list is the truth. */
  reload(): void;
  /**
   * The event stream started afresh, after what was stored when it opened: a pet created after a page shown was read
   * and before that comes in neither, so the pages from the last one read are read again once none is loading.
   */
  streamStarted(): void;
}

/** By id, each once: pages and pets added here meet in the order the service lists them. */
const merged = (pets: Pet[], more: Pet[]) => [...new Map([...pets, ...more].map((pet) => [pet.id, pet])).values()].sort((a, b) => a.id - b.id);

/** The pets that pass `filters` (all without any), a page at a time by the service's cursor. */
export function usePetList(client: PetstoreClient | undefined, filters: PetFilters): PetList {
  // What the callbacks follow: the same filters in a new object (a render, a choice made again) ask for nothing anew.
  const key = filtersKey(filters);
  const [pets, setPets] = useState<Pet[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loading, setLoading] = useState(client !== undefined);
  const [answered, setAnswered] = useState(false);
  const [error, setError] = useState<unknown>();
  const [listed, setListed] = useState({ client, filters });
  const [live, setLive] = useState<Pet[]>([]);
  const [arrival, setArrival] = useState<Pet>();
  // Counts reloads: each lists afresh from the first page.
  const [round, setRound] = useState(0);
  // Where the last page read started (null: the first page), and whether the stream started after it was read.
  const [lastFrom, setLastFrom] = useState<string | null>(null);
  const [behind, setBehind] = useState(false);
  // Cancelled when the client or a filter changes: an answer to the list before is dropped, never merged. So a search
  // typed on is one request at a time, the one for the latest text.
  const current = useRef<AbortController>(undefined);

  // Reset while rendering, not in an effect: the render that brings a new client or filter must not show the pets, the
  // error or the "answered" of the one before (which would say "Connected" for a key not yet tried).
  if (listed.client !== client || !sameFilters(listed.filters, filters)) {
    setListed({ client, filters });
    setPets([]);
    setCursor(null);
    setError(undefined);
    setLoading(client !== undefined);
    setLive([]);
    setArrival(undefined);
    setLastFrom(null);
    if (listed.client !== client) setAnswered(false);
  }

  /**
   * The pages from `from` on: one, or every one left to the last (as few requests as the service allows). `quiet`: to
   * the pets shown, without saying that it loads (no page is replaced).
   */
  const load = useCallback(
    async (from: string | null, toTheEnd = false, quiet = false): Promise<boolean> => {
      const signal = current.current?.signal;
      if (!client || !signal) return false;
      // Read from now on: whatever the stream has not brought since it started is in what this reads.
      setBehind(false);
      if (!quiet) setLoading(true);
      setError(undefined);
      try {
        let next = from;
        do {
          const replaces = next === null && !quiet;
          const page = await client.listPets({ ...filters, cursor: next, limit: toTheEnd ? LIST_LIMIT.max : undefined }, { signal });
          setPets((shown) => (replaces ? page.pets : merged(shown, page.pets)));
          setLastFrom(next);
          setCursor(page.nextCursor);
          setAnswered(true);
          next = page.nextCursor;
        } while (toTheEnd && next !== null);
        return true;
      } catch (failure) {
        if (!signal.aborted) setError(failure);
        return false;
      } finally {
        if (!signal.aborted && !quiet) setLoading(false);
      }
    },
    [client, key],
  );

  useEffect(() => {
    const controller = new AbortController();
    current.current = controller;
    void load(null);
    return () => controller.abort();
  }, [load, round]);

  const loadMore = useCallback(() => {
    if (cursor !== null && !loading) void load(cursor);
  }, [cursor, loading, load]);

  const showWaiting = useCallback(async () => {
    if (cursor === null) return true;
    return !loading && load(cursor, true);
  }, [cursor, loading, load]);

  // Once no page is loading: with every page shown, the last one read is read again to the end, and what was created
  // before the stream started is listed; otherwise the pages left are read later, and bring it then.
  useEffect(() => {
    if (!behind || loading) return;
    setBehind(false);
    if (cursor === null && error === undefined) void load(lastFrom, true, true);
  }, [behind, loading, cursor, error, lastFrom, load]);

  const streamStarted = useCallback(() => setBehind(true), []);

  const reload = useCallback(() => {
    setLive([]);
    setArrival(undefined);
    setRound((count) => count + 1);
  }, []);

  const added = useCallback(
    (pet: Pet) => {
      if (passesFilters(pet, filters)) setPets((shown) => merged(shown, [pet]));
    },
    [key],
  );

  // New pets come last: with every page shown they are listed, otherwise the pages before them are still to load.
  const more = cursor !== null;
  const shown = more || live.length === 0 ? pets : merged(pets, live);
  const waiting = more ? live.filter((pet) => !pets.some(({ id }) => id === pet.id)) : [];

  const arrived = useCallback(
    (pet: Pet) => {
      // Already listed (added on this page, whose form told first) or waiting: nothing new to show or say.
      if (!passesFilters(pet, filters) || [...pets, ...live].some(({ id }) => id === pet.id)) return;
      setLive((before) => merged(before, [pet]));
      setArrival(more ? undefined : pet);
    },
    [key, pets, live, more],
  );

  return { pets: shown, more, loading, answered, error, loadMore, added, arrived, waiting, arrival, showWaiting, reload, streamStarted };
}
