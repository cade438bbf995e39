import { setTimeout as sleep } from 'node:timers/promises';
import { killNode, registerWebhookEndpoint, type StartedService, stopNode, type WebhookReceiver } from '@petstore/testing';
import type { CrashDatabase, DatabaseKind } from './databases';
import { driveCreates, retryCreates } from './load';
import { between, seededRandom } from './random';
import { readAllPets, readPetsAfter } from './read';
import { startService } from './service';
import { Ledger, type Problem } from './verify';
import { checkDeliveries, deliveredCount, startCrashReceiver, WEBHOOK_ENV, type WebhookFigures, waitForAll } from './webhooks';

export interface HarnessOptions {
  cycles: number;
  /** Clients sending creates at once. */
  concurrency: number;
  /** Draws the kill delays and the bodies. */
  seed: number;
  /** Checks that every acknowledged pet's event reaches a receiver of the harness's. */
  webhooks: boolean;
  /** The service's output, from every start. */
  logFile: string;
  /** One line per cycle, for the person watching. */
  print(line: string): void;
  /** A problem, as soon as it is found. */
  warn(line: string): void;
}

export interface Figures {
  database: DatabaseKind;
  cycles: number;
  /** Pets answered with a 201, retries included. */
  acknowledged: number;
  /** Stored exactly as returned at the end of the run. */
  present: number;
  /** Missing, or stored otherwise than returned, at any check. */
  lost: number;
  /** Creates in flight at a kill, never answered. */
  unacknowledged: number;
  /** Those of them found stored after the restart, before their retry. */
  unacknowledgedStored: number;
  /** Retries of unacknowledged creates answered with a 201. */
  retried: number;
  /** Names stored more than once. */
  duplicates: number;
  /** Ids given to a second pet, or not above the ids stored before a restart. */
  reusedIds: number;
  /** Failed SQLite integrity checks; null on PostgreSQL. */
  integrityErrors: number | null;
  /** Anything else unexpected: an answer other than 201, a service that exited by itself, an unknown row. */
  errors: number;
  /** Null without webhooks. */
  webhooks: WebhookFigures | null;
  problems: string[];
  seconds: number;
}

const KILL_AFTER_MS = { min: 50, max: 800 };

/** Cycles of load, SIGKILL, restart and checks against one database; then a clean stop and a last check. */
export function runCrashHarness(database: CrashDatabase, options: HarnessOptions): Promise<Figures> {
  return new CrashRun(database, options).run();
}

class CrashRun {
  private readonly started = performance.now();
  private readonly delays: () => number;
  private readonly bodies: () => number;
  private readonly ledger = new Ledger();
  /** Problems the ledger does not count: answers, exits, integrity. */
  private readonly errors: string[] = [];
  private readonly totals = { unacknowledged: 0, stored: 0, retried: 0, integrityErrors: 0 };
  private problemsShown = 0;
  private service!: StartedService;
  private receiver?: WebhookReceiver;

  constructor(
    private readonly database: CrashDatabase,
    private readonly options: HarnessOptions,
  ) {
    this.delays = seededRandom(options.seed);
    // Its own generator: the clients draw from it in an order that timing decides.
    this.bodies = seededRandom(options.seed ^ 0x5bd1e995);
  }

  async run(): Promise<Figures> {
    if (this.options.webhooks) this.receiver = await startCrashReceiver(seededRandom(this.options.seed ^ 0x27d4eb2f));
    let present: number;
    let webhooks: WebhookFigures | null;
    try {
      this.service = await this.startService();
      // Once the service's migrations have made the table, and before the first create: every pet has its message.
      if (this.receiver) await registerWebhookEndpoint(this.database.url, this.receiver.url, this.receiver.secret);
      for (let cycle = 1; cycle <= this.options.cycles; cycle++) await this.cycle(cycle);
      const waited = this.receiver ? await waitForAll(this.receiver, this.ledger.acknowledgedPets()) : 0;
      // The retries of the last cycle are checked here, and everything else once more.
      const { pets } = await readAllPets(this.service.origin);
      present = this.ledger.checkTable(pets).present;
      webhooks = this.receiver ? checkDeliveries(this.receiver, this.ledger.acknowledgedPets(), pets, waited) : null;
      this.showProblems('end');
      for (const problem of webhooks?.problems ?? []) this.options.warn(`${this.database.kind} end: webhooks: ${problem}`);
    } finally {
      // Not after a failed restart: the service is then the one the harness killed.
      if (this.service && !this.service.exit) {
        const exit = await stopNode(this.service);
        if (exit.code !== 0) this.error(`end: SIGTERM stopped the service with ${JSON.stringify(exit)}, not exit code 0`);
      }
      await this.receiver?.close();
    }
    const integrity = await this.checkIntegrity('end, after a clean stop');
    return this.figures(present, integrity, webhooks);
  }

  private startService(): Promise<StartedService> {
    return startService(this.database.url, this.options.logFile, this.receiver ? WEBHOOK_ENV : {});
  }

  private async cycle(cycle: number): Promise<void> {
    const label = `cycle ${cycle}`;
    const killAfter = between(this.delays, KILL_AFTER_MS.min, KILL_AFTER_MS.max);
    const load = driveCreates(this.service.origin, cycle, this.options.concurrency, this.bodies);
    await Promise.race([sleep(killAfter), this.service.exited]);
    load.stop();
    if (!(await killNode(this.service))) this.error(`${label}: the service exited by itself (${JSON.stringify(this.service.exit)}) before the kill`);
    const outcome = await load.done;
    outcome.errors.forEach((line) => this.error(`${label}: ${line}`));
    outcome.acknowledged.forEach((answer) => this.ledger.acknowledge(answer));
    const integrity = await this.checkIntegrity(`${label}, after the kill`);

    this.service = await this.startService();
    const walk = await readAllPets(this.service.origin);
    const table = this.ledger.checkTable(walk.pets);
    const promised = this.ledger.acknowledgedCount;
    const stored = outcome.unacknowledged.filter((create) => table.rowsByName.has(create.body.name)).length;
    const retry = await retryCreates(this.service.origin, outcome.unacknowledged);
    retry.errors.forEach((line) => this.error(`${label}: ${line}`));
    retry.acknowledged.forEach((answer) => this.ledger.acknowledge(answer));
    this.ledger.checkRetried(outcome.unacknowledged, table, await readPetsAfter(walk));
    this.showProblems(label);

    this.totals.unacknowledged += outcome.unacknowledged.length;
    this.totals.stored += stored;
    this.totals.retried += retry.acknowledged.length;
    this.options.print(
      `${this.database.kind.padEnd(8)} ${label.padEnd(9)}  killed at ${String(killAfter).padStart(3)} ms: ` +
        `${outcome.acknowledged.length} acknowledged, ${outcome.unacknowledged.length} unacknowledged (${stored} stored), ` +
        `${retry.acknowledged.length} retried; ready again in ${this.service.readyMs.toFixed(0)} ms; ` +
        `${table.present}/${promised} present, ${this.ledger.lost.size} lost, ${this.ledger.duplicates.size} duplicates, integrity ${integrity}` +
        (this.receiver ? `; ${deliveredCount(this.receiver, this.ledger.acknowledgedPets())} pet.created delivered` : ''),
    );
  }

  /** Only while the service is down. */
  private async checkIntegrity(when: string): Promise<'ok' | 'FAILED' | 'n/a'> {
    const found = await this.database.integrityCheck();
    if (found === null) return 'n/a';
    if (!found.length) return 'ok';
    this.totals.integrityErrors++;
    this.error(`${when}: PRAGMA integrity_check: ${found.join('; ').slice(0, 1_000)}`);
    return 'FAILED';
  }

  private error(line: string): void {
    this.errors.push(line);
    this.options.warn(`${this.database.kind} ${line}`);
  }

  private showProblems(label: string): void {
    for (const problem of this.ledger.problems.slice(this.problemsShown)) this.options.warn(`${this.database.kind} ${label}: ${problem.kind}: ${problem.message}`);
    this.problemsShown = this.ledger.problems.length;
  }

  private figures(present: number, integrity: string, webhooks: WebhookFigures | null): Figures {
    const { ledger, totals } = this;
    const others = ledger.problems.filter((problem: Problem) => problem.kind === 'other').length;
    return {
      database: this.database.kind,
      cycles: this.options.cycles,
      acknowledged: ledger.acknowledgedCount,
      present,
      lost: ledger.lost.size,
      unacknowledged: totals.unacknowledged,
      unacknowledgedStored: totals.stored,
      retried: totals.retried,
      duplicates: ledger.duplicates.size,
      reusedIds: ledger.reusedIds.size,
      integrityErrors: integrity === 'n/a' ? null : totals.integrityErrors,
      errors: this.errors.length - totals.integrityErrors + others + (webhooks?.otherErrors ?? 0),
      webhooks,
      problems: [...ledger.problems.map((problem) => `${problem.kind}: ${problem.message}`), ...this.errors, ...(webhooks?.problems ?? []).map((problem) => `webhooks: ${problem}`)],
      seconds: (performance.now() - this.started) / 1000,
    };
  }
}

/** True when the run found nothing wrong. */
export function passed(figures: Figures): boolean {
  const webhooks = figures.webhooks;
  return (
    !figures.lost &&
    !figures.duplicates &&
    !figures.reusedIds &&
    !figures.errors &&
    !figures.integrityErrors &&
    (!webhooks || (!webhooks.missing && !webhooks.badSignatures && !webhooks.unstored))
  );
}
