import { setTimeout as sleep } from 'node:timers/promises';
import { PetstoreClient } from '@petstore/client';
import { killNode, stopNode } from '@petstore/testing';
import { checkStored, INSTANCES, withCluster } from './support/cluster';
import { checkHaproxyConfig, HAPROXY_CFG, haproxyInstalled } from './support/haproxy';
import { startClientLoad } from './support/load';
import { rollUnderLoad } from './support/rolling-restart';
import { TEST_KEY } from './support/test-key';

describe('several instances behind HAProxy', () => {
  it('has a configuration HAProxy accepts', () => {
    if (!haproxyInstalled()) {
      if (process.env.CI === 'true') throw new Error('haproxy is not installed: .ci/run installs it');
      process.stderr.write('SKIPPED the HAProxy tests: haproxy is not installed (apt-get install -y haproxy)\n');
      return;
    }
    const { status, output } = checkHaproxyConfig(HAPROXY_CFG);
    expect({ status, output }).toEqual({ status: 0, output: expect.stringContaining('Configuration file is valid') });
  });

  it.each(['PostgreSQL', 'PgBouncer'] as const)('loses nothing while every instance is replaced in turn under steady load, on %s', async (via) => {
    if (!haproxyInstalled()) return; // said once above
    await withCluster({ via }, async ({ haproxy, instances, ports, databaseUrl, restart }) => {
      const { report, stored, sentDuring } = await rollUnderLoad({
        label: `rolling deploy (${via}, HAProxy, ${INSTANCES} instances)`,
        origin: haproxy.origin,
        proxyLog: haproxy.log,
        databaseUrl,
        rate: 250,
        // As a deploy would: SIGTERM, wait for the exit, start the new version, wait until HAProxy sends to it.
        replacements: [...ports.keys()].map((index) => async () => {
          expect(await stopNode(instances[index])).toEqual({ code: 0, signal: null });
          await restart(index);
        }),
      });
      expect(report.failures.slice(0, 10)).toEqual([]);
      // The load ran through every replacement: judged by what was sent then, not by a rate (a busy machine sends less).
      expect(sentDuring.every((sent) => sent > 0)).toBe(true);
      expect(stored.missing).toEqual([]);
      expect(stored.duplicates).toEqual([]);
    });
  }, 300_000);

  it.each(['PostgreSQL', 'PgBouncer'] as const)('loses no acknowledged pet, and no client operation, when an instance is SIGKILLed under load, on %s', async (via) => {
    if (!haproxyInstalled()) return; // said once above
    await withCluster({ via }, async ({ haproxy, instances, databaseUrl }) => {
      const prefix = `crash-${Date.now()}-`;
      const client = new PetstoreClient({ baseUrl: `${haproxy.origin}/v1`, apiKey: TEST_KEY, logger: { warn: () => undefined } });
      const load = startClientLoad(client, { rate: 250, prefix });
      const started = Date.now();
      // The log names the instance that served each request: it did serve before it dies, however long that took.
      for (const deadline = Date.now() + 60_000; !haproxy.log().includes('petstore/api2 '); await sleep(100)) {
        if (Date.now() > deadline) throw new Error('api2 served nothing in 60 s of load');
      }
      await killNode(instances[1]);
      const killedAt = Date.now();
      // HAProxy's checks (every 500 ms, down after two failures) take it out; later requests go to the others. Judged
      // from the moment HAProxy says so, not after a fixed wait that a busy machine's late checks would outlast.
      await haproxy.waitUntilDown(2);
      const logSinceOut = haproxy.log().length;
      await sleep(Math.max(5_000, 12_000 - (Date.now() - started)));
      const report = await load.stop();
      const seconds = (Date.now() - started) / 1000;
      const sentToTheDead = haproxy.log().slice(logSinceOut).split('\n').filter((line) => line.includes('petstore/api2 '));

      const stored = await checkStored(databaseUrl, prefix, report);
      process.stdout.write(
        `SIGKILL (${via}, HAProxy, @petstore/client): ${report.sent} operations in ${seconds.toFixed(0)} s, ${report.failures.length} failed, ` +
          `${report.acknowledged.size} acknowledged creates, ${stored.present} present, ${stored.duplicates.length} duplicates; ` +
          `killed ${((Date.now() - killedAt) / 1000).toFixed(0)} s before the end, ${sentToTheDead.length} requests to it once HAProxy had it out\n`,
      );
      expect(report.failures.slice(0, 10)).toEqual([]);
      expect(stored.missing).toEqual([]);
      expect(stored.duplicates).toEqual([]);
      expect(sentToTheDead).toEqual([]);
      // The load went on once HAProxy had it out: the others served it, so "nothing to the dead one" was put to the test.
      const servedSinceOut = haproxy.log().slice(logSinceOut).split('\n').filter((line) => /petstore\/api[13] /.test(line));
      expect(servedSinceOut.length).toBeGreaterThan(0);
    });
  }, 300_000);
});
