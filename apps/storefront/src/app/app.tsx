import { type PetFilters, sameFilters } from '@petstore/contract';
import { useEffect, useMemo, useRef, useState } from 'react';
import { AddPetSection } from './add-pet-section';
import { ConnectSection } from './connect-section';
import { type Connection, forgetConnection, saveConnection, savedConnection } from './connection';
import { clientOf, connectionState } from './connection-state';
import { PetsSection } from './pets-section';
import { changedFilters, filtersInUrl, typedFilters, urlWithFilters } from './list-filters';
import { useLivePets } from './use-live-pets';
import { usePetList } from './use-pet-list';

/** The storefront: connect with a key, browse the pets, add one; everything through @petstore/client. */
export function App() {
  const [connection, setConnection] = useState<Connection | undefined>(() => savedConnection());
  const [filters, setFilters] = useState<PetFilters>(() => filtersInUrl());
  // The filters as last written to the address, ahead of the render that shows them: a change made before that render
  // (a choice right after a search was sent) is made to these, never to the rendered ones it would undo.
  const latest = useRef(filters);
  // Counts Back and Forward moves: the list's section starts afresh from the address's filters, its boxes' unsent text
  // dropped, as a page reached by a link would.
  const [moves, setMoves] = useState(0);
  // Counts connections: the form starts afresh with each, since what one key may not do says nothing of the next.
  const [connections, setConnections] = useState(0);

  const opened = useMemo(() => clientOf(connection), [connection]);
  const { client } = opened;
  const list = usePetList(client, filters);
  const state = connectionState(opened, list);
  // Pets added elsewhere, followed once the key works, whatever the filters: the list decides what to do with each.
  const following = useLivePets(client, state.kind === 'connected', { onStarted: list.streamStarted, onPet: list.arrived, onMissed: list.reload });

  // Back and forward move through the filters chosen on this page.
  useEffect(() => {
    const onPopState = () => {
      const moved = filtersInUrl();
      if (sameFilters(moved, latest.current)) return;
      latest.current = moved;
      setFilters(moved);
      setMoves((count) => count + 1);
    };
    window.addEventListener('popstate', onPopState);
    return () => window.removeEventListener('popstate', onPopState);
  }, []);

  const connect = (next: Connection) => {
    saveConnection(next);
    setConnection(next);
    setConnections((count) => count + 1);
  };
  const disconnect = () => {
    forgetConnection();
    setConnection(undefined);
  };
  // A choice made is a step Back returns to; a search typed replaces the address, or Back would retrace every pause.
  const filter = (change: PetFilters) => {
    const before = latest.current;
    const next = changedFilters(before, change);
    if (sameFilters(next, before)) return;
    const typed = typedFilters().some(([name]) => next[name] !== before[name]);
    window.history[typed ? 'replaceState' : 'pushState'](null, '', urlWithFilters(next));
    latest.current = next;
    setFilters(next);
  };

  return (
    <>
      <header className="masthead">
        <h1>Pet Store</h1>
      </header>
      <main className="layout">
        <ConnectSection connection={connection} state={state} onConnect={connect} onDisconnect={disconnect} />
        {/* Only once the key works: before, a list or a form could only repeat the connection's error.
            The form first, or on a phone it would be below every pet of a long list. Keys apart: siblings' must differ. */}
        {client && state.kind === 'connected' && (
          <>
            <AddPetSection key={`form ${connections}`} client={client} onCreated={list.added} />
            <PetsSection key={`list ${moves}`} list={list} following={following} filters={filters} onFiltersChange={filter} />
          </>
        )}
      </main>
    </>
  );
}
