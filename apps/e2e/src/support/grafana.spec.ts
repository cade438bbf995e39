import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { alertThreshold, asGrafanaSends, type Dashboard, readRules, selectorsOf, thresholdsOf } from './grafana';

const dashboard: Dashboard = {
  templating: {
    list: [
      { name: 'datasource', type: 'datasource' },
      { name: 'job', type: 'query', allValue: '.+' },
      { name: 'instance', type: 'query', allValue: '.+' },
    ],
  },
  panels: [],
};

describe('asGrafanaSends', () => {
  const expr = 'sum(rate(up_total{job=~"$job", instance=~"${instance}"}[$__rate_interval]))';

  it('puts every variable at "All" and the rate interval in', () => {
    expect(asGrafanaSends(expr, dashboard)).toBe('sum(rate(up_total{job=~".+", instance=~".+"}[30s]))');
  });

  it('writes one chosen value escaped for the regex, and several as an alternation', () => {
    expect(asGrafanaSends(expr, dashboard, { instance: ['127.0.0.1:9464'] })).toContain('instance=~"127\\\\.0\\\\.0\\\\.1:9464"');
    expect(asGrafanaSends(expr, dashboard, { job: ['a', 'b'] })).toContain('job=~"(a|b)"');
  });

  it('refuses a variable the dashboard does not have', () => {
    expect(() => asGrafanaSends('up{env=~"$env"}', dashboard)).toThrow('$env is not a variable of the dashboard');
  });
});

describe('selectorsOf', () => {
  it('finds the matchers of every selector, and none in a grouping clause', () => {
    expect(selectorsOf('sum by (operation) (a{x="1"}) / sum(b_total{y=~"2", z!="3"})')).toEqual(['x="1"', 'y=~"2", z!="3"']);
  });
});

describe('thresholdsOf', () => {
  it('leaves the base step out', () => {
    const panel = { id: 1, title: 't', type: 'timeseries', fieldConfig: { defaults: { thresholds: { steps: [{ value: null }, { value: 0.5 }] } } } };
    expect(thresholdsOf(panel)).toEqual([0.5]);
  });
});

describe('alertThreshold', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'petstore-grafana-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("reads the first number an alert's expression compares with", () => {
    const rules = join(dir, 'rules.yml');
    writeFileSync(
      rules,
      ['groups:', '  - name: g', '    rules:', '      - alert: High', '        expr: |', '          ratio{operation!=""} > 0.05', '          and on (job) rate5m > 0.1', ''].join('\n'),
    );
    expect(alertThreshold(readRules(rules), 'High')).toBe(0.05);
    expect(() => alertThreshold(readRules(rules), 'Absent')).toThrow('has no alert Absent');
  });
});
