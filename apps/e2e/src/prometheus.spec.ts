import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  freePort,
  registerWebhookEndpoint,
  type StartedService,
  startService,
  startWebhookReceiver,
  stopNode,
  WEBHOOK_RECEIVER_ENV,
  type WebhookReceiver,
} from '@petstore/testing';
import { admin, POSTGRES_ADMIN_URL } from './support/cluster';
import { alertThreshold, asGrafanaSends, type Panel, readDashboard, readRules, selectorsOf, thresholdsOf } from './support/grafana';
import { onPath, promtool, query, type RunningPrometheus, type Sample, startPrometheus, stopPrometheus } from './support/prometheus';
import { TEST_KEY } from './support/test-key';

const DEPLOY = join(__dirname, '../../../deploy/prometheus');
const RULES_FILE = join(DEPLOY, 'petstore.rules.yml');
const RULES = readRules(RULES_FILE);
const DASHBOARD = join(__dirname, '../../../deploy/grafana/petstore.json');
const RUNBOOKS = join(__dirname, '../../../docs/runbooks.md');

// CI installs Prometheus, so there a missing binary is a broken runner and must fail rather than skip.
const installed = onPath('prometheus') && onPath('promtool');
const runPrometheus = installed || process.env.CI === 'true';
if (!runPrometheus) console.warn('Skipping the Prometheus tests: prometheus or promtool not on PATH (apt-get install -y prometheus).');
const describePrometheus = runPrometheus ? describe : describe.skip;

describe('deploy/grafana/petstore.json', () => {
  const dashboard = readDashboard(DASHBOARD);
  const panel = (title: string): Panel => {
    const found = dashboard.panels.find((candidate) => candidate.title === title);
    if (!found) throw new Error(`no panel "${title}"`);
    return found;
  };
  const exprs = (title: string) => (panel(title).targets ?? []).map(({ expr }) => expr);

  it('has an instance variable, of the scraped targets of the chosen jobs, that may be all or several', () => {
    expect(dashboard.templating.list.find(({ name }) => name === 'instance')).toMatchObject({
      type: 'query',
      definition: 'label_values(up{job=~"$job"}, instance)',
      includeAll: true,
      multi: true,
    });
  });

  it('filters every series of every panel by the job and instance variables', () => {
    const unfiltered = dashboard.panels.flatMap(({ title, targets = [] }) =>
      targets.flatMap(({ refId, expr }) => {
        const selectors = selectorsOf(expr);
        const filtered = selectors.length > 0 && selectors.every((matchers) => matchers.includes('job=~"$job"') && matchers.includes('instance=~"$instance"'));
        return filtered ? [] : [{ title, refId, expr }];
      }),
    );
    expect(unfiltered).toEqual([]);
  });

  it('draws the alerts\' thresholds (deploy/prometheus/petstore.rules.yml) on the panels of what they watch', () => {
    expect({
      'Errors by operation': thresholdsOf(panel('Errors by operation')),
      'Latency p50 and p99 by operation': thresholdsOf(panel('Latency p50 and p99 by operation')),
      'Outbox age': thresholdsOf(panel('Outbox age')),
    }).toEqual({
      'Errors by operation': [alertThreshold(RULES, 'PetstoreHigh5xxRatio')],
      'Latency p50 and p99 by operation': [alertThreshold(RULES, 'PetstoreHighLatencyP99')],
      'Outbox age': [alertThreshold(RULES, 'PetstoreWebhooksBehind')],
    });
  });

  it('shows the outbox\'s depth as a count and its age in seconds, on two panels, and no count panel reads seconds', () => {
    expect({ unit: panel('Outbox depth').fieldConfig?.defaults.unit, exprs: exprs('Outbox depth') }).toEqual({
      unit: expect.stringMatching(/^(short|none)$/),
      exprs: [expect.stringMatching(/^max\(petstore_webhook_outbox_messages\{/)],
    });
    expect({ unit: panel('Outbox age').fieldConfig?.defaults.unit, exprs: exprs('Outbox age') }).toEqual({
      unit: 's',
      exprs: [expect.stringMatching(/^max\(petstore_webhook_outbox_oldest_age_seconds\{/)],
    });
    const counts = dashboard.panels.filter(({ fieldConfig }) => ['short', 'none'].includes(fieldConfig?.defaults.unit ?? ''));
    expect(counts.flatMap(({ title, targets = [] }) => targets.filter(({ expr }) => /_seconds(_bucket|_sum)?\{/.test(expr)).map(({ expr }) => ({ title, expr })))).toEqual([]);
  });

  it('shows the CPU each instance uses', () => {
    expect(exprs('CPU')).toEqual([expect.stringMatching(/^rate\(process_cpu_seconds_total\{/)]);
    expect(panel('CPU').fieldConfig?.defaults.unit).toBe('percentunit');
  });
});

describePrometheus('Prometheus', () => {
  beforeAll(() => {
    if (!installed) throw new Error('prometheus or promtool is not on PATH: .ci/run installs it (apt-get install -y prometheus)');
  });

  describe('deploy/prometheus', () => {
    it('is a valid configuration that loads the rules (promtool check config)', () => {
      const run = promtool(DEPLOY, 'check', 'config', 'prometheus.yml');
      expect(run).toMatchObject({ status: 0, stderr: '' });
      expect(run.stdout).toContain('SUCCESS: prometheus.yml is valid prometheus config file syntax');
      expect(run.stdout).toContain('SUCCESS: 1 rule files found');
    });

    it('holds valid rules (promtool check rules)', () => {
      const run = promtool(DEPLOY, 'check', 'rules', 'petstore.rules.yml');
      expect(run).toMatchObject({ status: 0, stderr: '' });
      expect(run.stdout).toMatch(/SUCCESS: \d+ rules found/);
    });

    it('links every alert to its section of docs/runbooks.md', () => {
      const alerts = RULES.groups.flatMap(({ rules }) => rules.filter((rule) => rule.alert));
      expect(alerts.length).toBeGreaterThanOrEqual(10);
      // GitHub's anchors: a heading lower-cased, spaces as hyphens, other punctuation dropped.
      const anchors = readFileSync(RUNBOOKS, 'utf8')
        .split('\n')
        .filter((line) => line.startsWith('## '))
        .map((line) => `docs/runbooks.md#${line.slice(3).trim().toLowerCase().replace(/[^a-z0-9 -]/g, '').replace(/ /g, '-')}`);
      const links = alerts.map(({ alert, annotations }) => ({ alert, runbook_url: annotations?.runbook_url }));
      expect(links).toEqual(alerts.map(({ alert }) => ({ alert, runbook_url: `docs/runbooks.md#${alert?.toLowerCase()}` })));
      expect(links.filter(({ runbook_url }) => !anchors.includes(runbook_url ?? ''))).toEqual([]);
    });

    it('fires each alert where its unit tests expect it, and only there (promtool test rules)', () => {
      const run = promtool(DEPLOY, 'test', 'rules', 'petstore.rules.test.yml');
      expect(run).toMatchObject({ status: 0, stderr: '' });
      expect(run.stdout).toContain('SUCCESS');
    });
  });

  describe('scraping the built service', () => {
    let dir: string;
    let service: StartedService | undefined;
    let prometheus: RunningPrometheus | undefined;

    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'petstore-prometheus-'));
    });
    afterEach(async () => {
      if (prometheus) await stopPrometheus(prometheus);
      if (service) await stopNode(service);
      prometheus = service = undefined;
      rmSync(dir, { recursive: true, force: true });
    });

    it('counts every answer by operation and status, and the rules evaluate on what it serves', async () => {
      const metricsPort = await freePort();
      service = await startService({ env: { API_KEYS: TEST_KEY, DATABASE_URL: `sqlite:${join(dir, 'petstore.sqlite')}`, METRICS_PORT: String(metricsPort) } });
      const api = (path: string, init: RequestInit = {}, key: string | null = TEST_KEY) =>
        fetch(`${service?.origin}/v1${path}`, {
          ...init,
          headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), 'content-type': 'application/json' },
        });
      const created = await api('/pets', { method: 'POST', body: JSON.stringify({ name: 'Scraped Rex', categoryId: 1 }) });
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: number };
      for (let n = 0; n < 3; n++) expect((await api(`/pets/${id}`)).status).toBe(200);
      expect((await api('/pets/987654321')).status).toBe(404);
      expect((await api(`/pets/${id}`, {}, null)).status).toBe(401);

      // Once a second, and the repository's own rules on top, evaluated as often.
      const config = join(dir, 'prometheus.yml');
      writeFileSync(
        config,
        JSON.stringify({
          global: { scrape_interval: '1s', scrape_timeout: '1s', evaluation_interval: '1s' },
          rule_files: [RULES_FILE],
          scrape_configs: [{ job_name: 'petstore', static_configs: [{ targets: [`127.0.0.1:${metricsPort}`], labels: { service: 'petstore' } }] }],
        }),
      );
      prometheus = await startPrometheus(config, join(dir, 'tsdb'));

      const expected = { 'createPet 201': 1, 'getPet 200': 3, 'getPet 401': 1, 'getPet 404': 1 };
      const counts = await pollUntil(prometheus, expected, async (p) =>
        byOperationAndStatus(await query(p, 'sum by (operation, http_response_status_code) (http_server_request_duration_seconds_count)')),
      );
      expect(counts).toEqual(expected);

      // Labels are route templates, never a raw path with an id.
      const routes = await query(prometheus, 'group by (operation, http_request_method, http_route) (http_server_request_duration_seconds_count{operation!=""})');
      expect(routes.map(({ metric }) => metric).sort((a, b) => a.operation.localeCompare(b.operation))).toEqual([
        { operation: 'createPet', http_request_method: 'POST', http_route: '/v1/pets' },
        { operation: 'getPet', http_request_method: 'GET', http_route: '/v1/pets/{petId}' },
      ]);

      for (const [promql, value] of [
        ['up{service="petstore"}', 1],
        ['petstore_ready', 1],
        ['petstore_database_up', 1],
        ['petstore_auth_failures_total{reason="missing"}', 1],
        ['sum(petstore_build_info)', 1],
      ] as const) {
        expect({ promql, values: (await query(prometheus, promql)).map((sample) => sample.value) }).toEqual({ promql, values: [value] });
      }

      // What this sequence on SQLite must have produced (the pool gauges are PostgreSQL's).
      const names = new Set((await query(prometheus, 'group by (__name__) ({job="petstore"})')).map(({ metric }) => metric.__name__));
      expect(
        [
          'http_server_request_duration_seconds_bucket',
          'http_server_active_requests',
          'petstore_db_statement_duration_seconds_bucket',
          'petstore_group_commit_batch_size_bucket',
          'petstore_lookup_batch_size_bucket',
          'petstore_rate_limit_refusals_total',
          'petstore_idempotent_replays_total',
          'petstore_idempotency_conflicts_total',
          'process_cpu_seconds_total',
          'nodejs_eventloop_lag_seconds',
          'nodejs_heap_size_used_bytes',
        ].filter((name) => !names.has(name)),
      ).toEqual([]);

      // Every recording and alerting rule has run on these series without an error.
      const rules = await ruleHealth(prometheus);
      expect(rules.filter((rule) => rule.health !== 'ok')).toEqual([]);
      // PetstoreServiceDown is pending from Prometheus's start until an evaluation after the first scrape: a few
      // evaluations later, no alert is left. Asked again until then, for a generous while (a stuck test's limit).
      const running = prometheus;
      expect(await untilEmpty(() => query(running, 'ALERTS'), 250)).toEqual([]);
    }, 120_000);

    it('answers every query of the Grafana dashboard (deploy/grafana) with data, on PostgreSQL under a little traffic', async () => {
      const database = `petstore_dashboard_${process.pid}`;
      await admin((client) => client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));
      await admin((client) => client.query(`CREATE DATABASE ${database}`));
      const databaseUrl = new URL(POSTGRES_ADMIN_URL);
      databaseUrl.pathname = `/${database}`;
      let receiver: WebhookReceiver | undefined;
      try {
        const metricsPort = await freePort();
        service = await startService({
          env: { API_KEYS: TEST_KEY, DATABASE_URL: databaseUrl.href, METRICS_PORT: String(metricsPort), ...WEBHOOK_RECEIVER_ENV },
        });
        // A webhook endpoint (in the tables the service has made), so that deliveries are attempted and measured.
        receiver = await startWebhookReceiver();
        await registerWebhookEndpoint(databaseUrl.href, receiver.url, receiver.secret);
        const config = join(dir, 'prometheus.yml');
        writeFileSync(
          config,
          JSON.stringify({
            global: { scrape_interval: '1s', scrape_timeout: '1s' },
            scrape_configs: [{ job_name: 'petstore', static_configs: [{ targets: [`127.0.0.1:${metricsPort}`], labels: { service: 'petstore' } }] }],
          }),
        );
        prometheus = await startPrometheus(config, join(dir, 'tsdb'));

        // A little of everything the panels show, for a few scrapes: creates, reads, pages, refusals.
        const api = (path: string, init: RequestInit = {}, key: string | null = TEST_KEY) =>
          fetch(`${service?.origin}/v1${path}`, { ...init, headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), 'content-type': 'application/json' } });
        const statuses = new Set<number>();
        const until = Date.now() + 8_000;
        for (let n = 0; Date.now() < until; n++) {
          const created = await api('/pets', { method: 'POST', body: JSON.stringify({ name: `Panel ${n}`, categoryId: 1 }) });
          const { id } = (await created.json()) as { id: number };
          for (const response of await Promise.all([api(`/pets/${id}`), api('/pets?limit=5'), api('/pets/987654321'), api('/pets', {}, null)])) {
            statuses.add(response.status);
          }
          statuses.add(created.status);
          await sleep(50);
        }
        expect([...statuses].sort()).toEqual([200, 201, 401, 404]);
        await receiver.waitFor(() => (receiver?.delivered().length ?? 0) > 0);

        const dashboard = readDashboard(DASHBOARD);
        // The instance variable's query (label_values(<selector>, instance)) lists the scraped service.
        const instance = `127.0.0.1:${metricsPort}`;
        const variable = dashboard.templating.list.find(({ name }) => name === 'instance');
        const selector = /^label_values\((.+), instance\)$/.exec(variable?.definition ?? '')?.[1] ?? 'no instance variable';
        const instances = await query(prometheus, asGrafanaSends(`group by (instance) (${selector})`, dashboard));
        expect(instances.map(({ metric }) => metric.instance)).toContain(instance);
        // As Grafana sends them, with a rate window of several scrapes: every job and instance ("All"), and this
        // instance chosen, as its value is written into the matcher.
        const choices: Array<Record<string, string[]>> = [{}, { instance: [instance] }];
        const queries = dashboard.panels.flatMap((panel) =>
          (panel.targets ?? []).flatMap(({ expr }) => choices.map((chosen) => ({ panel: panel.title, promql: asGrafanaSends(expr, dashboard, chosen) }))),
        );
        expect(queries.length).toBeGreaterThanOrEqual(2 * 18);
        const running = prometheus;
        const blank = async () => {
          const answers = [];
          for (const { panel, promql } of queries) {
            const response = (await (await fetch(`${running.origin}/api/v1/query?${new URLSearchParams({ query: promql })}`)).json()) as PromResponse;
            answers.push({ panel, promql, status: response.status, error: response.error, series: response.data?.result.length ?? 0 });
          }
          return answers.filter(({ status, series }) => status !== 'success' || series === 0);
        };
        // A rate needs two scrapes of its series in the window: on a busy machine they may come late, so the panels
        // are asked again until every one answers, for a generous while; the counters keep their series once made.
        // An error, or an empty answer where traffic was sent, is a panel an operator would see blank.
        expect(await untilEmpty(blank, 1_000)).toEqual([]);
      } finally {
        await receiver?.close();
        if (service) await stopNode(service);
        service = undefined;
        await admin((client) => client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));
      }
    }, 300_000);
  });
});

interface PromResponse {
  status: string;
  error?: string;
  data?: { result: unknown[] };
}

/** `{"getPet 200": 3, …}` for the requests of an operation; probes and unknown paths (no operation) are left out. */
function byOperationAndStatus(samples: Sample[]): Record<string, number> {
  return Object.fromEntries(
    samples
      .filter(({ metric }) => metric.operation)
      .map(({ metric, value }) => [`${metric.operation} ${metric.http_response_status_code}`, value])
      .sort(([a], [b]) => String(a).localeCompare(String(b))),
  );
}

/**
 * Reads `read` until it equals `expected` and every rule has been evaluated once, for at most 30 s; returns the last
 * reading, which the test then compares, so that a timeout shows the difference (and why the target failed, if it did).
 */
async function pollUntil(
  prometheus: RunningPrometheus,
  expected: Record<string, number>,
  read: (prometheus: RunningPrometheus) => Promise<Record<string, number>>,
): Promise<Record<string, number>> {
  const deadline = Date.now() + 30_000;
  let last = await read(prometheus);
  while (Date.now() < deadline) {
    const evaluated = (await ruleHealth(prometheus)).every((rule) => rule.health !== 'unknown');
    if (evaluated && JSON.stringify(last) === JSON.stringify(expected)) return last;
    await sleep(250);
    last = await read(prometheus);
  }
  const targets = (await (await fetch(`${prometheus.origin}/api/v1/targets`)).json()) as {
    data: { activeTargets: { scrapeUrl: string; health: string; lastError: string }[] };
  };
  const states = targets.data.activeTargets.map(({ scrapeUrl, health, lastError }) => ({ scrapeUrl, health, lastError }));
  console.warn(`Scrape targets after 30 s: ${JSON.stringify(states)}`);
  return last;
}

interface RuleHealth {
  name: string;
  health: string;
  lastError?: string;
}

async function ruleHealth(prometheus: RunningPrometheus): Promise<RuleHealth[]> {
  const body = (await (await fetch(`${prometheus.origin}/api/v1/rules`)).json()) as { data: { groups: { rules: RuleHealth[] }[] } };
  return body.data.groups.flatMap((group) => group.rules.map(({ name, health, lastError }) => ({ name, health, lastError })));
}

/** `ask()` asked again, `pause` ms apart, while it answers with something, for at most a minute; its last answer. */
async function untilEmpty<T>(ask: () => Promise<T[]>, pause: number): Promise<T[]> {
  let answer = await ask();
  for (const deadline = Date.now() + 60_000; answer.length > 0 && Date.now() < deadline; answer = await ask()) await sleep(pause);
  return answer;
}
