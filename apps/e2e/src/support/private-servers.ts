import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { waitForPort } from '@petstore/testing';

// Servers of a test's own, which it may stop and start under load without disturbing the shared ones other suites use.

const isRoot = () => process.getuid?.() === 0;

async function waitFor(port: number, what: string, closed = false): Promise<void> {
  if (!(await waitForPort(port, { closed }))) throw new Error(`${what} on port ${port} did not ${closed ? 'stop' : 'start'}`);
}

/** Debian's PostgreSQL server binaries (initdb, pg_ctl), newest version first; undefined when not installed. */
export function postgresBinaries(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const [newest] = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  return newest && existsSync(join(root, newest, 'bin', 'initdb')) ? join(root, newest, 'bin') : undefined;
}

export interface PrivatePostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres, trust authentication. */
  adminUrl: string;
  start(): Promise<void>;
  /** A fast shutdown: sessions are ended, as in a restart by an operator. */
  stop(): Promise<void>;
  remove(): Promise<void>;
}

/** A PostgreSQL cluster of its own on `port` (initdb; run as the postgres OS user when the test runs as root). */
export async function createPostgres(port: number): Promise<PrivatePostgres> {
  const bin = postgresBinaries();
  if (!bin) throw new Error('PostgreSQL server binaries are not installed');
  const dir = mkdtempSync(join(tmpdir(), 'petstore-pg-'));
  const owner = isRoot() ? 'postgres' : userInfo().username;
  if (isRoot()) {
    const { uid, gid } = userIds(owner);
    chownSync(dir, uid, gid);
  }
  const run = (command: string, args: string[]) => {
    const result = isRoot() ? spawnSync('runuser', ['-u', owner, '--', command, ...args], { encoding: 'utf8' }) : spawnSync(command, args, { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${result.stdout}${result.stderr}`);
  };
  const data = join(dir, 'data');
  run(join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const pgCtl = (action: string[]) => run(join(bin, 'pg_ctl'), ['-D', data, '-l', join(dir, 'server.log'), '-w', ...action]);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`;
  const server: PrivatePostgres = {
    adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: async () => {
      pgCtl(['-o', options, 'start']);
      await waitFor(port, 'PostgreSQL');
    },
    stop: async () => {
      pgCtl(['-m', 'fast', 'stop']);
      await waitFor(port, 'PostgreSQL', true);
    },
    remove: async () => {
      try {
        pgCtl(['-m', 'immediate', 'stop']);
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await server.start();
  return server;
}

function userIds(name: string): { uid: number; gid: number } {
  const [uid, gid] = ['-u', '-g'].map((flag) => Number(spawnSync('id', [flag, name], { encoding: 'utf8' }).stdout.trim()));
  return { uid, gid };
}
