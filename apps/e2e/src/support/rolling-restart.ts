import { setTimeout as sleep } from 'node:timers/promises';
import { checkStored } from './cluster';
import { type LoadReport, startLoad } from './load';
import { TEST_KEY } from './test-key';

export interface RollingRestart {
  report: LoadReport;
  stored: Awaited<ReturnType<typeof checkStored>>;
  /** Requests sent while each replacement ran: the load must overlap every one of them. */
  sentDuring: number[];
}

/**
 * A rolling restart under steady load, as the HAProxy and Kubernetes tests run it: the load through `origin` (creates
 * with an Idempotency-Key, reads, list walks) for 4 s, then each `replacements` in turn, then the load until 30 s in
 * all; afterwards every acknowledged create is looked up in the database. Prints one line of what was seen; the
 * caller judges it.
 */
export async function rollUnderLoad({ label, origin, proxyLog, databaseUrl, rate, replacements }: {
  label: string;
  origin: string;
  /** HAProxy's log: its lines on servers going down and up are printed when a request failed, to say why. */
  proxyLog: () => string;
  databaseUrl: string;
  /** Operations per second asked of the load. */
  rate: number;
  replacements: Array<() => Promise<void>>;
}): Promise<RollingRestart> {
  const prefix = `roll-${Date.now()}-`;
  const load = startLoad({ origin, key: TEST_KEY, rate, prefix });
  try {
    const started = Date.now();
    await sleep(4_000);
    const sentDuring: number[] = [];
    for (const replace of replacements) {
      const sentBefore = load.sent();
      await replace();
      sentDuring.push(load.sent() - sentBefore);
    }
    await sleep(Math.max(0, 30_000 - (Date.now() - started)));
    const report = await load.stop();
    const seconds = (Date.now() - started) / 1000;
    const stored = await checkStored(databaseUrl, prefix, report);
    process.stdout.write(
      `${label}: ${report.sent} requests sent in ${seconds.toFixed(0)} s (${(report.sent / seconds).toFixed(0)}/s), ` +
        `${report.failures.length} failed, ${report.acknowledged.size} acknowledged creates, ${stored.present} present, ` +
        `${stored.duplicates.length} duplicates; sent during each replacement: ${sentDuring.join(', ')}\n`,
    );
    if (report.failures.length > 0) {
      const changes = proxyLog().split('\n').filter((line) => /Server \S+ is (UP|DOWN)/.test(line));
      process.stdout.write(`${label}: HAProxy's servers going down and up:\n${changes.join('\n')}\n`);
    }
    return { report, stored, sentDuring };
  } finally {
    await load.stop();
  }
}
