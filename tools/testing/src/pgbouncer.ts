import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { waitForPort } from './port-open';

/** The repository's PgBouncer configuration, which the tests run with (only the addresses and the auth differ). */
export const PGBOUNCER_INI = join(__dirname, '../../../deploy/pgbouncer/pgbouncer.ini');

export interface RunningPgBouncer {
  /** e.g. postgres://user@127.0.0.1:41234 (append /database). */
  origin: string;
  stop(): Promise<void>;
}

/** Whether Debian's pgbouncer is installed (`apt-get install -y pgbouncer`; .ci/run does it). */
export const pgbouncerInstalled = (): boolean => spawnSync('pgbouncer', ['--version']).status === 0;

/**
 * Starts PgBouncer with deploy/pgbouncer/pgbouncer.ini in front of the test server (`server`, host:port), on `port`,
 * trusting `user` (the current OS user unless named) as the test server does: transaction pooling and the timeouts as
 * deployed.
 */
export async function startPgBouncer(server: { host: string; port: number }, port: number, user = userInfo().username): Promise<RunningPgBouncer> {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-pgbouncer-'));
  writeFileSync(join(dir, 'userlist.txt'), `"${user}" ""\n`);
  const ini = readFileSync(PGBOUNCER_INI, 'utf8')
    .replace(/^\* = host=\S+ port=\d+$/m, `* = host=${server.host} port=${server.port}`)
    .replace(/^listen_port = \d+$/m, `listen_port = ${port}`)
    .replace(/^auth_type = .*$/m, 'auth_type = trust')
    .replace(/^auth_file = .*$/m, `auth_file = ${join(dir, 'userlist.txt')}`)
    .concat(`\nlogfile = ${join(dir, 'pgbouncer.log')}\npidfile = ${join(dir, 'pgbouncer.pid')}\nunix_socket_dir =\n`)
    // PgBouncer refuses to run as root (as CI does): it then drops to the PostgreSQL server's own OS user.
    .concat(process.getuid?.() === 0 ? 'user = postgres\n' : '');
  chmodSync(dir, 0o777);
  writeFileSync(join(dir, 'pgbouncer.ini'), ini);
  const child: ChildProcess = spawn('pgbouncer', [join(dir, 'pgbouncer.ini')], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  if (!(await waitForPort(port, { givenUp: () => child.exitCode !== null }))) {
    throw new Error(`PgBouncer did not start on port ${port}:\n${readLog(join(dir, 'pgbouncer.log'))}`);
  }
  return {
    origin: `postgres://${user}@127.0.0.1:${port}`,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function readLog(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
