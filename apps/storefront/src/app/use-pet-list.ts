import type { PetstoreClient } from '@petstore/client';
import { passesFilters, type Pet, type PetFilters, sameFilters } from '@petstore/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { filtersKey } from './list-filters';

export interface PetList {
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
    if (listed.client !== client) setAnswered(false);
  }

  const load = useCallback(
    async (from: string | null) => {
      const signal = current.current?.signal;
      if (!client || !signal) return;
      setLoading(true);
      setError(undefined);
      try {
        const page = await client.listPets({ ...filters, cursor: from }, { signal });
        setPets((shown) => (from === null ? page.pets : merged(shown, page.pets)));
        setCursor(page.nextCursor);
        setAnswered(true);
      } catch (failure) {
        if (!signal.aborted) setError(failure);
      } finally {
        if (!signal.aborted) setLoading(false);
      }
    },
    [client, key],
  );

  useEffect(() => {
    const controller = new AbortController();
    current.current = controller;
    void load(null);
    return () => controller.abort();
  }, [load]);

  const loadMore = useCallback(() => {
    if (cursor !== null && !loading) void load(cursor);
  }, [cursor, loading, load]);

  const added = useCallback(
    (pet: Pet) => {
      if (passesFilters(pet, filters)) setPets((shown) => merged(shown, [pet]));
    },
    [key],
  );

  return { pets, more: cursor !== null, loading, answered, error, loadMore, added };
}
