import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, spawnNode, stopNode, waitFor200 } from '@petstore/testing';

const VERDACCIO = join(__dirname, '../../../../node_modules/verdaccio/bin/verdaccio');
const USER = 'e2e-publisher';

export interface LocalRegistry {
  /** The registry's address, with its trailing slash, as npm writes it. */
  url: string;
  /** An npmrc that points at the registry and holds a token of its throwaway user: pass it as --userconfig. */
  userconfig: string;
  stop(): Promise<void>;
}

/**
 * Starts Verdaccio on a free port of 127.0.0.1, its storage, users and npmrc under `dir`. It has no uplinks: a
 * package it does not hold is a 404, so nothing an install asks for leaves the machine.
 */
export async function startVerdaccio(dir: string): Promise<LocalRegistry> {
  const port = await freePort();
  mkdirSync(join(dir, 'storage'), { recursive: true });
  const config = join(dir, 'verdaccio.yaml');
  writeFileSync(
    config,
    [
      `storage: ${JSON.stringify(join(dir, 'storage'))}`,
      'auth:',
      `  htpasswd: { file: ${JSON.stringify(join(dir, 'htpasswd'))}, max_users: 1 }`,
      'uplinks: {}',
      'packages:',
      "  '@petstore/*': { access: $all, publish: $authenticated, unpublish: $authenticated }",
      "  '**': { access: $all, publish: $authenticated }",
      'web: { enable: false }',
      'log: { type: stdout, format: pretty, level: warn }',
      '',
    ].join('\n'),
  );
  // HOME in the folder too, so that nothing Verdaccio might write lands in the user's.
  const registry = await spawnNode('Verdaccio', VERDACCIO, {
    env: { PORT: String(port), HOME: dir },
    args: ['--config', config, '--listen', `127.0.0.1:${port}`],
  });
  const url = `${registry.origin}/`;
  const stop = async () => {
    await stopNode(registry);
  };
  try {
    await waitFor200(registry, '/-/ping');
    const token = await addUser(url);
    const userconfig = join(dir, 'npmrc');
    writeFileSync(userconfig, `registry=${url}\n//127.0.0.1:${port}/:_authToken=${token}\n`);
    return { url, userconfig, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Registers the throwaway user (what `npm adduser` does) and returns its token. */
async function addUser(url: string): Promise<string> {
  const password = randomBytes(16).toString('hex');
  const response = await fetch(`${url}-/user/org.couchdb.user:${USER}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: USER, password }),
    signal: AbortSignal.timeout(5_000),
  });
  const body = (await response.json()) as { token?: string };
  if (!response.ok || !body.token) throw new Error(`Verdaccio refused the user: ${response.status} ${JSON.stringify(body)}`);
  return body.token;
}
