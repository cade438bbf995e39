// Writes deploy/kubernetes/prometheus-operator/prometheus-rule.yaml, the Prometheus Operator's PrometheusRule, from
// deploy/prometheus/petstore.rules.yml: one source for the rules wherever Prometheus runs. `npm run prometheus-rule`
// after changing the rules; with --stdout it prints the file instead, which apps/e2e/src/kubernetes-manifests.spec.ts
// compares with the committed one.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';

const ROOT = join(__dirname, '..');
const RULES_FILE = join(ROOT, 'deploy/prometheus/petstore.rules.yml');
const PROMETHEUS_RULE_FILE = join(ROOT, 'deploy/kubernetes/prometheus-operator/prometheus-rule.yaml');

/** The PrometheusRule holding the groups of a Prometheus rules file, as YAML. */
function prometheusRule(rules: string): string {
  const { groups } = parse(rules) as { groups: unknown[] };
  const object = { apiVersion: 'monitoring.coreos.com/v1', kind: 'PrometheusRule', metadata: { name: 'petstore' }, spec: { groups } };
  const header = '# Generated from deploy/prometheus/petstore.rules.yml by `npm run prometheus-rule` (tools/prometheus-rule.ts): edit that file.\n';
  return header + stringify(object, { lineWidth: 0 });
}

const yaml = prometheusRule(readFileSync(RULES_FILE, 'utf8'));
if (process.argv.includes('--stdout')) process.stdout.write(yaml);
else writeFileSync(PROMETHEUS_RULE_FILE, yaml);
