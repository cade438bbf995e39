import { join } from 'node:path';
import { parse, stringify } from 'yaml';

const ROOT = join(__dirname, '../../..');
/** The rules, as Prometheus reads them (deploy/prometheus). */
export const RULES_FILE = join(ROOT, 'deploy/prometheus/petstore.rules.yml');
/** The same rules as the Prometheus Operator's object, made from RULES_FILE. */
export const PROMETHEUS_RULE_FILE = join(ROOT, 'deploy/kubernetes/prometheus-operator/prometheus-rule.yaml');

/**
 * The Prometheus Operator's PrometheusRule holding the groups of a Prometheus rules file (deploy/prometheus), as YAML:
 * what `npm run prometheus-rule` writes to deploy/kubernetes/prometheus-operator/prometheus-rule.yaml.
 */
export function prometheusRule(rules: string): string {
  const { groups } = parse(rules) as { groups: unknown[] };
  const object = { apiVersion: 'monitoring.coreos.com/v1', kind: 'PrometheusRule', metadata: { name: 'petstore' }, spec: { groups } };
  const header = '# Generated from deploy/prometheus/petstore.rules.yml by `npm run prometheus-rule` (tools/deploy): edit that file.\n';
  return header + stringify(object, { lineWidth: 0 });
}
