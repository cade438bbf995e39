import { type ChildProcess, execFile, execFileSync, spawn, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { chownSync, closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { parse, stringify } from 'yaml';
import { freePort } from './free-port';
import { waitForPort } from './port-open';
import { TcpRelay } from './tcp-relay';

const execFileAsync = promisify(execFile);
const DEPLOY = join(__dirname, '../../../deploy/patroni');
const PG_BIN = '/usr/lib/postgresql/15/bin';
export const CLUSTER_DATABASE = 'petstore';

/**
 * A generous bound, not a verdict on speed; below the failover spec's timeout, so that a stuck cluster fails naming
 * what it awaited.
 */
const CLUSTER_WAIT_MS = 480_000;

/**
 * Needs root (the members run as `postgres`), Debian's patroni, etcd, haproxy and PostgreSQL 15. Elsewhere the suite
 * is skipped, saying why; under CI=true it fails.
 */
export function patroniRuns(what: string): boolean {
  const missing = [
    ...['patroni', 'patronictl', 'etcd', 'haproxy', 'runuser'].filter((command) => spawnSync('sh', ['-c', `command -v ${command}`]).status !== 0),
    ...(existsSync(join(PG_BIN, 'postgres')) ? [] : [`${PG_BIN}/postgres`]),
    ...(process.getuid?.() === 0 ? [] : ['root']),
  ];
  if (missing.length === 0 || process.env.CI === 'true') return true;
  console.warn(`Skipping ${what}: needs ${missing.join(', ')} (apt-get install -y patroni etcd-server etcd-client haproxy, as root).`);
  return false;
}

export interface Member {
  name: string;
  pgPort: number;
  restPort: number;
  /** Between this member's Patroni and etcd: silenced, it cuts the member off from the cluster's lock. */
  dcs: TcpRelay;
}

export interface PatroniCluster {
  members: Member[];
  /** HAProxy's, which always leads to the primary. */
  haproxyPort: number;
  url(port: number): string;
  /** The leader, once it takes writes. */
  waitForPrimary(options?: { not?: Member; is?: Member }): Promise<Member>;
  /** SIGKILLs Patroni and PostgreSQL, as a lost machine. */
  kill(member: Member): void;
  /** It rejoins as a replica (pg_rewind where needed). */
  start(member: Member): Promise<void>;
  /** To `candidate`, or any synchronous standby. */
  switchover(candidate?: Member): Promise<void>;
  /** Until every member runs and (with more than one) one is a synchronous standby, able to fail over again. */
  waitUntilHealthy(): Promise<void>;
  /**
   * Makes `member` the synchronous standby, the only switchover target in synchronous mode: Patroni keeps a healthy
   * one, so the current one is stopped until `member` is chosen.
   */
  makeSyncStandby(member: Member): Promise<void>;
  stop(): Promise<void>;
}

/** The parts of deploy/patroni/patroni.yml the test changes; the rest is used as written. */
interface PatroniConfig {
  name: string;
  restapi: Record<string, unknown>;
  etcd3: Record<string, unknown>;
  bootstrap: { initdb: unknown[]; pg_hba: string[] } & Record<string, unknown>;
  postgresql: Record<string, unknown>;
}

interface MemberProcess {
  member: Member;
  config: string;
  dataDir: string;
  child?: ChildProcess;
}

/** PostgreSQL refuses to run as root. */
function asPostgres(command: string, args: string[], log: string): ChildProcess {
  const out = openSync(log, 'a');
  const child = spawn('runuser', ['-u', 'postgres', '--', command, ...args], { stdio: ['ignore', out, out], env: { PATH: process.env.PATH ?? '', HOME: '/tmp' } });
  closeSync(out);
  return child;
}

/** Patroni members over one etcd on loopback, HAProxy in front; one member is the benchmark's unreplicated baseline. */
export async function startPatroniCluster(size = 3): Promise<PatroniCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-patroni-'));
  chownSync(dir, uidOf('postgres'), gidOf('postgres'));
  const [etcdClient, etcdPeer, haproxyPort] = [await freePort(), await freePort(), await freePort()];
  const etcd = spawn(
    'etcd',
    [
      '--name', 'e1', '--data-dir', join(dir, 'etcd'),
      '--listen-client-urls', `http://127.0.0.1:${etcdClient}`, '--advertise-client-urls', `http://127.0.0.1:${etcdClient}`,
      '--listen-peer-urls', `http://127.0.0.1:${etcdPeer}`, '--initial-advertise-peer-urls', `http://127.0.0.1:${etcdPeer}`,
      '--initial-cluster', `e1=http://127.0.0.1:${etcdPeer}`, '--initial-cluster-state', 'new',
    ],
    { stdio: 'ignore' },
  );
  await waitForPort(etcdClient, { timeoutMs: 30_000 });

  const template = parse(readFileSync(join(DEPLOY, 'patroni.yml'), 'utf8')) as PatroniConfig;
  const processes: MemberProcess[] = [];
  for (let index = 1; index <= size; index += 1) {
    const member: Member = { name: `pg${index}`, pgPort: await freePort(), restPort: await freePort(), dcs: new TcpRelay(await freePort(), { host: '127.0.0.1', port: etcdClient }) };
    await member.dcs.start();
    const dataDir = join(dir, member.name);
    const config = structuredClone(template);
    config.name = member.name;
    config.restapi = { listen: `127.0.0.1:${member.restPort}`, connect_address: `127.0.0.1:${member.restPort}` };
    // Through its relay only: without use_proxies, Patroni asks etcd for its members' addresses and goes there directly.
    config.etcd3 = { hosts: `127.0.0.1:${member.dcs.port}`, use_proxies: true };
    // One machine: trust on loopback instead of the template's scram.
    config.bootstrap.initdb = [...template.bootstrap.initdb, { auth: 'trust' }];
    config.bootstrap.pg_hba = ['local all all trust', 'host all all 127.0.0.1/32 trust', 'host replication all 127.0.0.1/32 trust'];
    config.postgresql = {
      ...config.postgresql,
      listen: `127.0.0.1:${member.pgPort}`,
      connect_address: `127.0.0.1:${member.pgPort}`,
      data_dir: dataDir,
      pgpass: join(dir, `${member.name}.pgpass`),
      authentication: { superuser: { username: 'postgres' }, replication: { username: 'postgres' } },
      parameters: { unix_socket_directories: dir },
    };
    const file = join(dir, `${member.name}.yml`);
    writeFileSync(file, stringify(config));
    chownSync(file, uidOf('postgres'), gidOf('postgres'));
    processes.push({ member, config: file, dataDir });
  }

  const startMember = (process: MemberProcess) => {
    process.child = asPostgres('patroni', [process.config], join(dir, `${process.member.name}.log`));
  };
  const haproxy = spawn('haproxy', ['-db', '-f', haproxyConfig(dir, haproxyPort, processes.map(({ member }) => member))], { stdio: 'ignore' });

  const rest = async (member: Member, path: string): Promise<number> => {
    try {
      return (await fetch(`http://127.0.0.1:${member.restPort}${path}`, { signal: AbortSignal.timeout(1_000) })).status;
    } catch {
      return 0;
    }
  };
  // Asynchronous: patronictl reaches etcd through a member's relay, which this process runs.
  const patronictl = async (...args: string[]) =>
    (await execFileAsync('patronictl', ['-c', processes[0].config, ...args], { encoding: 'utf8', timeout: 60_000 })).stdout;

  const list = async () => JSON.parse(await patronictl('list', '-f', 'json')) as Array<{ Member: string; Role: string; State: string }>;

  const cluster: PatroniCluster = {
    members: processes.map(({ member }) => member),
    haproxyPort,
    url: (port) => `postgres://postgres@127.0.0.1:${port}/${CLUSTER_DATABASE}`,
    async waitForPrimary({ not, is } = {}) {
      const deadline = Date.now() + CLUSTER_WAIT_MS;
      for (;;) {
        for (const member of is ? [is] : cluster.members) {
          if (member !== not && (await rest(member, '/primary')) === 200 && (await writable(member.pgPort))) return member;
        }
        if (Date.now() > deadline) throw new Error(`no writable primary within ${CLUSTER_WAIT_MS / 1000} s:\n${await patronictl('list')}`);
        await sleep(200);
      }
    },
    kill(member) {
      const process = processes.find((each) => each.member === member);
      const patroniPid = spawnSync('pgrep', ['-f', `patroni ${process?.config}$`], { encoding: 'utf8' }).stdout.trim().split('\n').filter(Boolean);
      const postmaster = process && existsSync(join(process.dataDir, 'postmaster.pid')) ? readFileSync(join(process.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0] : undefined;
      for (const pid of [...patroniPid, postmaster].filter(Boolean)) {
        try {
          globalThis.process.kill(Number(pid), 'SIGKILL');
        } catch {
          // Gone already.
        }
      }
    },
    async start(member) {
      const process = processes.find((each) => each.member === member);
      if (process) startMember(process);
      await waitForPort(member.restPort, { timeoutMs: 60_000 });
    },
    async switchover(candidate) {
      await patronictl('switchover', '--force', ...(candidate ? ['--candidate', candidate.name] : []));
    },
    async makeSyncStandby(member) {
      const syncStandby = async () => (await list()).find(({ Role }) => Role === 'Sync Standby')?.Member;
      const current = await syncStandby();
      if (current === member.name) return;
      const other = cluster.members.find(({ name }) => name === current);
      if (other) cluster.kill(other);
      const deadline = Date.now() + CLUSTER_WAIT_MS;
      while ((await syncStandby()) !== member.name) {
        if (Date.now() > deadline) throw new Error(`${member.name} did not become the synchronous standby within ${CLUSTER_WAIT_MS / 1000} s: ${JSON.stringify(await list())}`);
        await sleep(250);
      }
      if (other) await cluster.start(other);
      await cluster.waitUntilHealthy();
    },
    async waitUntilHealthy() {
      const deadline = Date.now() + CLUSTER_WAIT_MS;
      for (;;) {
        const members = await list();
        if (members.length === size && members.every(({ State }) => ['running', 'streaming'].includes(State)) && (size === 1 || members.some(({ Role }) => Role === 'Sync Standby'))) return;
        if (Date.now() > deadline) throw new Error(`the cluster did not become healthy within ${CLUSTER_WAIT_MS / 1000} s: ${JSON.stringify(members)}`);
        await sleep(250);
      }
    },
    async stop() {
      for (const process of processes) cluster.kill(process.member);
      for (const { member } of processes) await member.dcs.stop();
      haproxy.kill('SIGKILL');
      etcd.kill('SIGKILL');
      // Orphaned PostgreSQL children exit once their postmaster is gone.
      await sleep(500);
      rmSync(dir, { recursive: true, force: true });
    },
  };

  try {
    for (const process of processes) {
      startMember(process);
      // The first to start bootstraps the cluster; the others copy it.
      if (process === processes[0]) await cluster.waitForPrimary();
    }
    const primary = await cluster.waitForPrimary();
    await admin(primary.pgPort, 'postgres', (client) => client.query(`CREATE DATABASE ${CLUSTER_DATABASE}`));
    await cluster.waitUntilHealthy();
    await waitForPort(haproxyPort, { timeoutMs: 30_000 });
    return cluster;
  } catch (error) {
    await cluster.stop();
    throw error;
  }
}

/** deploy/patroni/haproxy.cfg with the test's addresses. */
function haproxyConfig(dir: string, port: number, members: Member[]): string {
  const servers = members.map((member) => `    server ${member.name} 127.0.0.1:${member.pgPort} check port ${member.restPort}`).join('\n');
  const cfg = readFileSync(join(DEPLOY, 'haproxy.cfg'), 'utf8')
    .replace(/^ {4}bind :\d+$/m, `    bind 127.0.0.1:${port}`)
    .replace(/(^ {4}server pg\d+ .*\n?)+/m, `${servers}\n`);
  const file = join(dir, 'haproxy.cfg');
  writeFileSync(file, cfg);
  return file;
}

/** One short-lived superuser connection; a member that stops answering fails it instead of stalling the poll. */
async function admin<T>(port: number, database: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/${database}`, connectionTimeoutMillis: 2_000, query_timeout: 30_000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function writable(port: number): Promise<boolean> {
  try {
    return await admin(port, 'postgres', async (client) => (await client.query("SELECT NOT pg_is_in_recovery() AND current_setting('transaction_read_only') = 'off' AS w")).rows[0].w === true);
  } catch {
    return false;
  }
}

/** For the count after the faults. */
export async function storedPets(port: number): Promise<Array<{ id: number; name: string }>> {
  return admin(port, CLUSTER_DATABASE, async (client) => (await client.query('SELECT id::int AS id, name FROM pets ORDER BY id')).rows);
}

const idOf = (flag: '-u' | '-g', name: string) => Number(execFileSync('id', [flag, name], { encoding: 'utf8' }).trim());
const uidOf = (name: string) => idOf('-u', name);
const gidOf = (name: string) => idOf('-g', name);

