// Writes deploy/kubernetes/prometheus-operator/prometheus-rule.yaml, the Prometheus Operator's PrometheusRule, from
// deploy/prometheus/petstore.rules.yml: one source for the rules wherever Prometheus runs. `npm run prometheus-rule`
// after changing the rules. The conversion is @petstore/testing's prometheusRule, which
// apps/e2e/src/kubernetes-manifests.spec.ts also calls to compare its answer with the committed file.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { prometheusRule } from '@petstore/testing';

const ROOT = join(__dirname, '..');
const RULES_FILE = join(ROOT, 'deploy/prometheus/petstore.rules.yml');
const PROMETHEUS_RULE_FILE = join(ROOT, 'deploy/kubernetes/prometheus-operator/prometheus-rule.yaml');

writeFileSync(PROMETHEUS_RULE_FILE, prometheusRule(readFileSync(RULES_FILE, 'utf8')));
