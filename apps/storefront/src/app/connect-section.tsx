import { type FormEvent, useId, useState } from 'react';
import type { Connection } from './connection';
import type { ConnectionState } from './connection-state';
import { Alert } from './controls';

interface Props {
  connection?: Connection;
  state: ConnectionState;
  onConnect(connection: Connection): void;
  onDisconnect(): void;
}

/**
 * The API key, typed in; a password field, so it is not shown or remembered. No address: the page talks to the service
 * that served it, the only one its Content-Security-Policy lets it reach.
 */
export function ConnectSection({ connection, state, onConnect, onDisconnect }: Props) {
  const [apiKey, setApiKey] = useState(connection?.apiKey ?? '');
  const id = useId();

  const connect = (event: FormEvent) => {
    event.preventDefault();
    onConnect({ apiKey: apiKey.trim() });
  };

  return (
    <section aria-labelledby={`${id}-heading`} className="panel">
      <h2 id={`${id}-heading`}>Connection</h2>
      <form onSubmit={connect} className="fields">
        <div className="field">
          <label htmlFor={`${id}-key`}>API key</label>
          <input
            id={`${id}-key`}
            type="password"
            required
            autoComplete="off"
            spellCheck={false}
            value={apiKey}
            onChange={(event) => setApiKey(event.target.value)}
          />
        </div>
        <div className="actions">
          <button type="submit">Connect</button>
          {connection && (
            <button type="button" className="secondary" onClick={onDisconnect}>
              Disconnect
            </button>
          )}
        </div>
      </form>
      {/* Always in the page, so that a screen reader announces "Connected" when it comes. */}
      <p role="status" className="note">
        {state.kind === 'checking' && `Connecting to ${state.address}…`}
        {state.kind === 'connected' && `Connected to ${state.address}. The key is kept for this tab only.`}
      </p>
      <Alert>{state.kind === 'failed' && state.reason}</Alert>
    </section>
  );
}
