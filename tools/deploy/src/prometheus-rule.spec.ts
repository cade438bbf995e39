import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { PROMETHEUS_RULE_FILE, prometheusRule, RULES_FILE } from './prometheus-rule';

describe('the PrometheusRule of deploy/kubernetes/prometheus-operator', () => {
  it('is what `npm run prometheus-rule` writes from deploy/prometheus/petstore.rules.yml today', () => {
    expect(readFileSync(PROMETHEUS_RULE_FILE, 'utf8')).toBe(prometheusRule(readFileSync(RULES_FILE, 'utf8')));
  });

  it('holds the groups of the rules file, whole, under a header that says where to edit them', () => {
    const rules = 'groups:\n  - name: petstore\n    rules:\n      - alert: Down\n        expr: up == 0\n';
    const written = prometheusRule(rules);
    expect(written.split('\n')[0]).toMatch(/^# Generated from deploy\/prometheus\/petstore.rules.yml .*edit that file\.$/);
    expect(parse(written)).toEqual({
      apiVersion: 'monitoring.coreos.com/v1',
      kind: 'PrometheusRule',
      metadata: { name: 'petstore' },
      spec: { groups: [{ name: 'petstore', rules: [{ alert: 'Down', expr: 'up == 0' }] }] },
    });
  });
});
