import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

// The Grafana dashboard (deploy/grafana) read as Grafana reads it: its variables substituted into the queries it
// sends, and its thresholds beside the alerting rules (deploy/prometheus) they must repeat.

export interface Panel {
  id: number;
  title: string;
  type: string;
  fieldConfig?: { defaults: { unit?: string; thresholds?: { steps: Array<{ value: number | null }> } } };
  targets?: Array<{ refId: string; expr: string }>;
}

export interface Variable {
  name: string;
  type: string;
  definition?: string;
  includeAll?: boolean;
  multi?: boolean;
  allValue?: string;
}

export interface Dashboard {
  templating: { list: Variable[] };
  panels: Panel[];
}

export const readDashboard = (path: string): Dashboard => JSON.parse(readFileSync(path, 'utf8')) as Dashboard;

/** As Grafana's Prometheus data source escapes a value for a regex matcher, in a PromQL string. */
const asRegex = (value: string): string => value.replace(/[\\^$*+?.()|[\]{}]/g, (special) => `\\\\${special}`);

/**
 * `expr` as Grafana sends it: each query variable at its chosen values, else at its "All" value, and
 * `$__rate_interval` at 30s. Throws when a variable is left or has no "All" value.
 */
export function asGrafanaSends(expr: string, dashboard: Dashboard, chosen: Record<string, string[]> = {}): string {
  let promql = expr.replaceAll('$__rate_interval', '30s');
  for (const variable of dashboard.templating.list.filter(({ type }) => type === 'query')) {
    const values = chosen[variable.name];
    const value = values ? (values.length === 1 ? asRegex(values[0]) : `(${values.map(asRegex).join('|')})`) : variable.allValue;
    if (value === undefined) throw new Error(`$${variable.name} has no allValue: choose its values`);
    promql = promql.replace(new RegExp(`\\$(?:\\{${variable.name}\\}|${variable.name}\\b)`, 'g'), () => value);
  }
  const left = /\$\{?\w+/.exec(promql);
  if (left) throw new Error(`${left[0]} is not a variable of the dashboard: ${expr}`);
  return promql;
}

/** The label matchers of every series selector of a PromQL expression, one string each. */
export const selectorsOf = (expr: string): string[] => [...expr.matchAll(/[A-Za-z_:][\w:]*\{([^}]*)\}/g)].map(([, matchers]) => matchers);

/** A panel's thresholds, without the base step. */
export const thresholdsOf = (panel: Panel): number[] =>
  (panel.fieldConfig?.defaults.thresholds?.steps ?? []).flatMap(({ value }) => (value === null ? [] : [value]));

/** A Prometheus rules file, as far as the tests read it. */
export interface RuleFile {
  groups: Array<{ name: string; rules: Array<{ alert?: string; record?: string; expr: string; annotations?: Record<string, string> }> }>;
}

export const readRules = (path: string): RuleFile => parse(readFileSync(path, 'utf8')) as RuleFile;

/** The threshold of an alerting rule: the number its expression first compares a series with (`> 0.05`). */
export function alertThreshold(rules: RuleFile, alert: string): number {
  const rule = rules.groups.flatMap((group) => group.rules).find((candidate) => candidate.alert === alert);
  if (!rule) throw new Error(`the rules file has no alert ${alert}`);
  const comparison = /\s>=?\s*(\d+(?:\.\d+)?)/.exec(rule.expr);
  if (!comparison) throw new Error(`${alert} compares with no number: ${rule.expr}`);
  return Number(comparison[1]);
}
