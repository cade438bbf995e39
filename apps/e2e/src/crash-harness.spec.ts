import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { pgbouncerInstalled } from '@petstore/testing';

const WORKSPACE = join(__dirname, '../../..');
const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? `postgres://${userInfo().username}@127.0.0.1:5432/test`;

/** The part of the harness's `--out` file this suite reads (tools/crash/harness.ts, Figures). */
interface HarnessReport {
  failures: string[];
  results: Array<{
    database: string;
    cycles: number;
    acknowledged: number;
    present: number;
    lost: number;
    duplicates: number;
    reusedIds: number;
    integrityErrors: number | null;
    errors: number;
    webhooks: { expected: number; delivered: number; missing: number; badSignatures: number; unstored: number; duplicates: number } | null;
    problems: string[];
  }>;
}

/** Runs `npm run crash` without its build step (the built service is what this project tests). */
async function runHarness(args: string[]): Promise<{ code: number | null; output: string; report: HarnessReport }> {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-crash-e2e-'));
  try {
    const out = join(dir, 'figures.json');
    const child = spawn(process.execPath, ['-r', '@swc-node/register', 'tools/crash/crash.ts', ...args, '--out', out], {
      cwd: WORKSPACE,
      env: { ...process.env, SWC_NODE_PROJECT: 'tsconfig.base.json' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    let report: HarnessReport;
    try {
      report = JSON.parse(readFileSync(out, 'utf8'));
    } catch {
      throw new Error(`the harness exited with ${code} and wrote no figures:\n${output}`);
    }
    return { code, output, report };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function postgresReachable(): Promise<boolean> {
  const client = new Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

/** False, aloud, when the database cannot be had here; CI insists on every one. */
async function available(database: 'sqlite' | 'postgres' | 'pgbouncer'): Promise<boolean> {
  if (database !== 'sqlite' && !(await postgresReachable())) {
    // As the root jest.config.js does for the PostgreSQL leg of the HTTP suite: CI insists, a laptop skips aloud.
    if (process.env.CI === 'true') throw new Error(`PostgreSQL at ${POSTGRES_ADMIN_URL} is not reachable`);
    process.stderr.write(`SKIPPED the crash harness on PostgreSQL: ${POSTGRES_ADMIN_URL} is not reachable\n`);
    return false;
  }
  if (database === 'pgbouncer' && !pgbouncerInstalled()) {
    if (process.env.CI === 'true') throw new Error('pgbouncer is not installed: .ci/run installs it');
    process.stderr.write('SKIPPED the crash harness through PgBouncer: pgbouncer is not installed\n');
    return false;
  }
  return true;
}

// The short run of tools/crash on every change; `npm run crash -- --cycles 50` is the long one.
describe('the crash harness', () => {
  it.each(['sqlite', 'postgres', 'pgbouncer'] as const)(
    'finds every acknowledged pet after three SIGKILLs on %s, each stored once under an id of its own',
    async (database) => {
      if (!(await available(database))) return;
      const { code, output, report } = await runHarness(['--cycles', '3', '--database', database]);
      expect(report.failures).toEqual([]);
      const [figures] = report.results;
      // The problems first: on a failure they say which pet, which id and what was found.
      expect({ problems: figures.problems, code }).toEqual({ problems: [], code: 0 });
      expect(figures).toMatchObject({
        database,
        cycles: 3,
        present: figures.acknowledged,
        lost: 0,
        duplicates: 0,
        reusedIds: 0,
        errors: 0,
        integrityErrors: database === 'sqlite' ? 0 : null,
      });
      expect(figures.acknowledged).toBeGreaterThan(0);
      expect(output).toContain('no acknowledged pet lost');
    },
    60_000,
  );

  // The promise: kill -9 during deliveries loses no event. After the last restart the harness waits out the
  // lease (21 s with its WEBHOOK_TIMEOUT_MS) on what the killed instance had claimed.
  it.each(['sqlite', 'postgres'] as const)(
    'delivers the pet.created of every acknowledged pet after eight SIGKILLs on %s, signed, and none for a pet not stored',
    async (database) => {
      if (!(await available(database))) return;
      const { code, output, report } = await runHarness(['--cycles', '8', '--database', database, '--webhooks']);
      expect(report.failures).toEqual([]);
      const [figures] = report.results;
      expect({ problems: figures.problems, code }).toEqual({ problems: [], code: 0 });
      expect(figures).toMatchObject({ database, cycles: 8, present: figures.acknowledged, lost: 0, duplicates: 0, errors: 0 });
      expect(figures.webhooks).toMatchObject({ expected: figures.acknowledged, delivered: figures.acknowledged, missing: 0, badSignatures: 0, unstored: 0 });
      expect(figures.acknowledged).toBeGreaterThan(0);
      expect(output).toContain('every pet.created delivered');
    },
    150_000,
  );
});
