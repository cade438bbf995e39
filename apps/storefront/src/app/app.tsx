import type { PetStatus } from '@petstore/contract';
import { useEffect, useMemo, useState } from 'react';
import { AddPetSection } from './add-pet-section';
import { ConnectSection } from './connect-section';
import { clientFor, type Connection, forgetConnection, saveConnection, savedConnection } from './connection';
import { PetsSection } from './pets-section';
import { statusInUrl, urlWithStatus } from './status-filter';
import { usePetList } from './use-pet-list';

/** The storefront: connect with a key, browse the pets, add one; everything through @petstore/client. */
export function App() {
  const [connection, setConnection] = useState<Connection | undefined>(() => savedConnection());
  const [status, setStatus] = useState<PetStatus | undefined>(() => statusInUrl());
  // Counts connections: the form starts afresh with each, since what one key may not do says nothing of the next.
  const [connections, setConnections] = useState(0);

  const { client, problem } = useMemo(() => {
    if (!connection) return {};
    try {
      return { client: clientFor(connection) };
    } catch (error) {
      // The client refuses an address it cannot use (not absolute, not ending in /v1); the message says which.
      return { problem: error instanceof Error ? error.message : String(error) };
    }
  }, [connection]);
  const list = usePetList(client, status);

  // Back and forward move through the filters chosen on this page.
  useEffect(() => {
    const onPopState = () => setStatus(statusInUrl());
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
  const filter = (next: PetStatus | undefined) => {
    window.history.pushState(null, '', urlWithStatus(next));
    setStatus(next);
  };

  return (
    <>
      <header className="masthead">
        <h1>Pet Store</h1>
      </header>
      <main className="layout">
        <ConnectSection connection={connection} problem={problem} onConnect={connect} onDisconnect={disconnect} />
        {client && (
          <>
            <PetsSection list={list} status={status} onStatusChange={filter} />
            <AddPetSection key={connections} client={client} onCreated={list.added} />
          </>
        )}
      </main>
    </>
  );
}
