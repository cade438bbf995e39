import { type FormEvent, useId, useState } from 'react';
import { type Connection, defaultBaseUrl } from './connection';
import { Alert } from './controls';

interface Props {
  connection?: Connection;
  /** Why the last connection could not be used (an address the client refuses), if it could not. */
  problem?: string;
  onConnect(connection: Connection): void;
  onDisconnect(): void;
}

/** The API's address and a key, typed in; the key field is a password field, so it is not shown or remembered. */
export function ConnectSection({ connection, problem, onConnect, onDisconnect }: Props) {
  const [baseUrl, setBaseUrl] = useState(connection?.baseUrl ?? defaultBaseUrl());
  const [apiKey, setApiKey] = useState(connection?.apiKey ?? '');
  const id = useId();

  const connect = (event: FormEvent) => {
    event.preventDefault();
    onConnect({ baseUrl: baseUrl.trim(), apiKey: apiKey.trim() });
  };

  return (
    <section aria-labelledby={`${id}-heading`} className="panel">
      <h2 id={`${id}-heading`}>Connection</h2>
      <form onSubmit={connect} className="fields">
        <div className="field">
          <label htmlFor={`${id}-address`}>API address</label>
          <input id={`${id}-address`} type="url" required value={baseUrl} onChange={(event) => setBaseUrl(event.target.value)} />
        </div>
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
      <Alert>{problem}</Alert>
      {connection && !problem && <p className="note">Connected to {connection.baseUrl}. The key is kept for this tab only.</p>}
    </section>
  );
}
