// Writes deploy/kubernetes/prometheus-operator/prometheus-rule.yaml, the Prometheus Operator's PrometheusRule, from
// deploy/prometheus/petstore.rules.yml: one source for the rules wherever Prometheus runs. `npm run prometheus-rule`
// after changing the rules; prometheus-rule.spec.ts fails until the committed file is what this writes.
import { readFileSync, writeFileSync } from 'node:fs';
import { PROMETHEUS_RULE_FILE, prometheusRule, RULES_FILE } from './prometheus-rule';

writeFileSync(PROMETHEUS_RULE_FILE, prometheusRule(readFileSync(RULES_FILE, 'utf8')));
