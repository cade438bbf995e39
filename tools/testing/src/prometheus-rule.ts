import { parse, stringify } from 'yaml';

/**
 * The Prometheus Operator's PrometheusRule holding the groups of a Prometheus rules file (deploy/prometheus), as YAML:
 * what tools/prometheus-rule.ts writes to deploy/kubernetes/prometheus-operator/prometheus-rule.yaml.
 */
export function prometheusRule(rules: string): string {
  const { groups } = parse(rules) as { groups: unknown[] };
  const object = { apiVersion: 'monitoring.coreos.com/v1', kind: 'PrometheusRule', metadata: { name: 'petstore' }, spec: { groups } };
  const header = '# Generated from deploy/prometheus/petstore.rules.yml by `npm run prometheus-rule` (tools/prometheus-rule.ts): edit that file.\n';
  return header + stringify(object, { lineWidth: 0 });
}
