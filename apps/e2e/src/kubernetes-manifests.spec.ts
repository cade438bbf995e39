import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { type KubeObject, render, renderKustomization } from './support/kustomize';
import { onPath } from './support/prometheus';

// deploy/kubernetes, rendered as `kubectl apply -k` would render it (Kustomize, offline), each object checked against
// the Kubernetes schema of its kind, and the rules an operator relies on checked in what comes out. The schemas
// (kubernetes-models' validators, ES modules only, run in a Node process of their own) check types, formats and
// required fields but let unknown fields through, as the API's own OpenAPI does: a misspelt field is found by
// TypeScript instead, holding each object to its kind's interface, whose excess-property check reaches every level.

const ROOT = join(__dirname, '../../..');

// CI's machines have kubectl (with Kustomize) preinstalled: there a missing one is a broken runner.
const installed = onPath('kubectl');
if (!installed && process.env.CI !== 'true') console.warn('Skipping the Kubernetes manifest tests: kubectl is not on PATH.');
const describeManifests = installed || process.env.CI === 'true' ? describe : describe.skip;

/** The kinds the manifests use, each by the kubernetes-models module of its class and interface (`I<Kind>`). */
const MODELS: Record<string, string> = {
  'v1/ConfigMap': 'kubernetes-models/v1/ConfigMap',
  'v1/Service': 'kubernetes-models/v1/Service',
  'v1/PersistentVolumeClaim': 'kubernetes-models/v1/PersistentVolumeClaim',
  'apps/v1/Deployment': 'kubernetes-models/apps/v1/Deployment',
  'autoscaling/v2/HorizontalPodAutoscaler': 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler',
  'policy/v1/PodDisruptionBudget': 'kubernetes-models/policy/v1/PodDisruptionBudget',
  'networking.k8s.io/v1/NetworkPolicy': 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy',
  // The Prometheus Operator's CRDs, as its published schemas (@kubernetes-models/prometheus-operator).
  'monitoring.coreos.com/v1/PodMonitor': '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PodMonitor',
  'monitoring.coreos.com/v1/PrometheusRule': '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PrometheusRule',
};

/** Validates each object of stdin's JSON array with its kind's model; prints a problem, or "", per object. */
const VALIDATE = `
const objects = JSON.parse(require('node:fs').readFileSync(0, 'utf8'));
const problems = [];
for (const { module, object } of objects) {
  const { [object.kind]: Model } = await import(module);
  try { new Model(object).validate(); problems.push(''); } catch (error) { problems.push(error.message); }
}
process.stdout.write(JSON.stringify(problems));
`;

/** What the schema of each object's kind, then its TypeScript interface, say against it: nothing when all are valid. */
function schemaProblems(...objects: KubeObject[]): string[] {
  const unknown = objects.filter((object) => !MODELS[`${object.apiVersion}/${object.kind}`]);
  if (unknown.length > 0) return unknown.map((object) => `${object.apiVersion} ${object.kind} is not a kind these manifests are checked for`);
  const input = JSON.stringify(objects.map((object) => ({ module: MODELS[`${object.apiVersion}/${object.kind}`], object })));
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', `import { createRequire } from 'node:module'; const require = createRequire(process.cwd() + '/'); ${VALIDATE}`], {
    cwd: ROOT,
    input,
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`the kubernetes-models validation did not run: ${run.stderr}`);
  const found = (JSON.parse(run.stdout) as string[]).flatMap((problem, index) => (problem ? [`${objects[index].kind} ${objects[index].metadata.name}: ${problem}`] : []));
  return [...found, ...typeProblems(objects)];
}

/**
 * The objects as literals of their kinds' interfaces, type-checked in memory in one program (the models' typings are
 * loaded once): unknown fields are errors there. Each error is named by the object whose lines it falls in.
 */
function typeProblems(objects: KubeObject[]): string[] {
  // Beside this file, so that the modules resolve from the workspace's node_modules.
  const file = join(__dirname, '__manifest-check__.ts');
  const imports = objects.map((object, index) => `import type { I${object.kind} as Kind${index} } from '${MODELS[`${object.apiVersion}/${object.kind}`]}';`);
  const declarations = objects.map((object, index) => `export const manifest${index}: Kind${index} = ${JSON.stringify(object, null, 2)};`);
  const source = [...imports, ...declarations].join('\n');
  /** The line each object's declaration starts on, in the order of `objects`. */
  const firstLines: number[] = [];
  let next = imports.length;
  for (const declaration of declarations) {
    firstLines.push(next);
    next += declaration.split('\n').length;
  }
  const options: ts.CompilerOptions = { strict: true, noEmit: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, skipLibCheck: true, types: [] };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (name) => (name === file ? source : readFile(name));
  host.fileExists = ((exists) => (name: string) => name === file || exists(name))(host.fileExists.bind(host));
  host.getSourceFile = (name, language, ...rest) =>
    name === file ? ts.createSourceFile(name, source, language, true) : getSourceFile(name, language, ...rest);
  const program = ts.createProgram([file], options, host);
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const line = diagnostic.file && diagnostic.start !== undefined ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line : 0;
    const index = Math.max(0, firstLines.filter((first) => first <= line).length - 1);
    return `${objects[index].kind} ${objects[index].metadata.name}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`;
  });
}

/** Whether a `matchLabels` selector selects an object with these labels. */
const selects = (matchLabels: Record<string, string>, labels: Record<string, string>) =>
  Object.keys(matchLabels).length > 0 && Object.entries(matchLabels).every(([key, value]) => labels[key] === value);

interface NetworkPolicyPort {
  port: string | number;
  protocol: string;
}
interface NetworkPolicyRule {
  ports: NetworkPolicyPort[];
  from?: unknown[];
  to?: unknown[];
}

const only = (objects: KubeObject[], kind: string) => {
  const found = objects.filter((object) => object.kind === kind);
  expect(found).toHaveLength(1);
  return found[0];
};

describeManifests('deploy/kubernetes', () => {
  beforeAll(() => {
    if (!installed) throw new Error('kubectl is not on PATH: the CI machines have it preinstalled');
  });

  describe.each(['postgres', 'sqlite'])('the %s overlay', (overlay) => {
    const objects = installed ? render(overlay) : [];

    it('renders objects that each match the Kubernetes schema of their kind', () => {
      expect(objects.length).toBeGreaterThanOrEqual(4);
      expect(schemaProblems(...objects)).toEqual([]);
    });

    it('runs the image as the service expects: probes, a stop longer than the service’s, hardened, secrets as files', () => {
      const deployment = only(objects, 'Deployment');
      const pod = deployment.spec.template.spec;
      const [container] = pod.containers;
      // Readiness on /health/routable, not /health/ready: red while starting or stopping, green through a database
      // outage, so that the Service keeps its endpoints and callers get the instances' 503s (docs/operations.md). The
      // startup probe only waits for the process: starting (migrations not yet run) is readiness's to report.
      expect(container.readinessProbe.httpGet).toEqual({ path: '/health/routable', port: 'http' });
      expect(container.livenessProbe.httpGet).toEqual({ path: '/health/live', port: 'http' });
      expect(container.startupProbe.httpGet.path).toBe('/health/live');
      // The service stops within 9 s of SIGTERM, after the preStop pause.
      expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(9 + Number(container.lifecycle.preStop.exec.command[1]));
      expect(container.ports).toEqual(expect.arrayContaining([{ name: 'http', containerPort: 3000 }, { name: 'metrics', containerPort: 9464 }]));
      expect(container.resources.requests).toEqual({ cpu: expect.any(String), memory: expect.any(String) });
      expect(container.resources.limits).toEqual({ cpu: expect.any(String), memory: expect.any(String) });
      expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000, seccompProfile: { type: 'RuntimeDefault' } });
      expect(container.securityContext).toEqual({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } });
      // Secrets reach the service as files, by the _FILE variables, never as values in the environment.
      const secretVolume = pod.volumes.find((volume: { secret?: unknown }) => volume.secret);
      expect(secretVolume.secret.secretName).toBe('petstore-secrets');
      const secretsPath = container.volumeMounts.find((mount: { name: string }) => mount.name === secretVolume.name).mountPath;
      const config = only(objects, 'ConfigMap').data ?? {};
      const variables = { ...config, ...Object.fromEntries(container.env.map(({ name, value }: { name: string; value: string }) => [name, value])) };
      for (const [name, value] of Object.entries(variables)) {
        if (name.endsWith('_FILE')) expect(value).toMatch(new RegExp(`^${secretsPath}/`));
        // Blank where given (it then gives way to its _FILE, over the image's default), never a value.
        if (['API_KEYS', 'DATABASE_URL', 'REDIS_URL'].includes(name)) expect({ [name]: value }).toEqual({ [name]: '' });
      }
      expect(variables.API_KEYS_FILE).toBeDefined();
      expect(container.envFrom).toEqual([{ configMapRef: { name: only(objects, 'ConfigMap').metadata.name } }]);
      // The metrics port, named for a scrape by port name, is the Service's too.
      expect(only(objects, 'Service').spec.ports).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'metrics', targetPort: 'metrics' })]));
    });

    it('leaves the replica count to the autoscaler where one targets the Deployment, and sets it where none does', () => {
      const deployment = only(objects, 'Deployment');
      const autoscaled = objects.some(
        ({ kind, spec }) => kind === 'HorizontalPodAutoscaler' && spec.scaleTargetRef.kind === 'Deployment' && spec.scaleTargetRef.name === deployment.metadata.name,
      );
      // A count beside an autoscaler pulls a scaled-out Deployment back to it on every apply.
      if (autoscaled) expect(deployment.spec).not.toHaveProperty('replicas');
      else expect(deployment.spec.replicas).toEqual(expect.any(Number));
    });

    it('spreads the replicas over nodes (strictly) and zones (as a preference), counting exactly its own pods', () => {
      const deployment = only(objects, 'Deployment');
      const constraints = deployment.spec.template.spec.topologySpreadConstraints;
      expect(constraints.map(({ topologyKey, whenUnsatisfiable, maxSkew }: Record<string, unknown>) => ({ topologyKey, whenUnsatisfiable, maxSkew }))).toEqual([
        { topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'DoNotSchedule', maxSkew: 1 },
        { topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'ScheduleAnyway', maxSkew: 1 },
      ]);
      const podLabels = deployment.spec.template.metadata.labels;
      for (const { labelSelector } of constraints) {
        expect(selects(labelSelector.matchLabels, podLabels)).toBe(true);
        // The same pods as the Deployment's: another workload's pods sharing the labels would skew the count.
        expect(labelSelector.matchLabels).toEqual(deployment.spec.selector.matchLabels);
      }
    });

    it('fences the pods: the API from anywhere, metrics from the monitoring namespace, egress to what the overlay uses', () => {
      const deployment = only(objects, 'Deployment');
      const policy = only(objects, 'NetworkPolicy').spec;
      expect(selects(policy.podSelector.matchLabels, deployment.spec.template.metadata.labels)).toBe(true);
      expect(policy.policyTypes).toEqual(['Ingress', 'Egress']);
      const containerPorts: Array<{ name: string; containerPort: number }> = deployment.spec.template.spec.containers[0].ports;
      /** The container port a policy's port names, by name or number. */
      const portOf = ({ port }: NetworkPolicyPort) => containerPorts.find(({ name, containerPort }) => port === name || port === containerPort);
      const ingress: NetworkPolicyRule[] = policy.ingress;
      // Every rule's port is one the container listens on, and every port the container listens on has its rule.
      expect(ingress.flatMap(({ ports }) => ports.filter((port) => !portOf(port)))).toEqual([]);
      const admitted = (containerPortName: string) => ingress.filter(({ ports }) => ports.some((port) => portOf(port)?.name === containerPortName));
      expect(containerPorts.map(({ name }) => [name, admitted(name).length])).toEqual(containerPorts.map(({ name }) => [name, 1]));
      // No `from`: every source.
      expect(admitted('http')[0].from).toBeUndefined();
      expect(admitted('metrics')[0].from).toEqual([{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } }]);
      expect(ingress.flatMap(({ ports }) => ports.map(({ protocol }) => protocol))).toEqual(ingress.flatMap(({ ports }) => ports.map(() => 'TCP')));

      const egress: NetworkPolicyRule[] = policy.egress;
      const dns = egress.filter(({ ports }) => ports.some(({ port }) => port === 53));
      expect(dns).toEqual([
        {
          to: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'kube-system' } } }],
          ports: [
            { port: 53, protocol: 'UDP' },
            { port: 53, protocol: 'TCP' },
          ],
        },
      ]);
      // PostgreSQL, Redis and the webhooks' HTTPS, at any address (they may live outside the cluster), over TCP.
      const others = egress.filter((rule) => !dns.includes(rule));
      expect(others.every(({ to }) => to === undefined)).toBe(true);
      const expected = overlay === 'postgres' ? [5432, 6379, 443] : [443];
      expect(others.flatMap(({ ports }) => ports)).toEqual(expected.map((port) => ({ port, protocol: 'TCP' })));
    });
  });

  it('postgres: at least three replicas rolled one at a time, a disruption budget, autoscaled on CPU, the database and Redis from the Secret', () => {
    const objects = render('postgres');
    const deployment = only(objects, 'Deployment');
    expect(deployment.spec.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } });
    const selector = deployment.spec.selector.matchLabels;
    expect(only(objects, 'PodDisruptionBudget').spec).toEqual({ maxUnavailable: 1, selector: { matchLabels: selector } });
    const autoscaler = only(objects, 'HorizontalPodAutoscaler').spec;
    expect(autoscaler.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: deployment.metadata.name });
    expect(autoscaler.minReplicas).toBe(3);
    expect(autoscaler.metrics).toEqual([{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }]);
    expect(only(objects, 'ConfigMap').data).toMatchObject({
      DATABASE_URL: '',
      DATABASE_URL_FILE: '/run/secrets/petstore/database-url',
      REDIS_URL_FILE: '/run/secrets/petstore/redis-url',
    });
    expect(objects.map(({ kind }) => kind)).not.toContain('PersistentVolumeClaim');
  });

  it('sqlite: one replica, replaced by stopping it first, its file on a claimed volume at /data', () => {
    const objects = render('sqlite');
    const deployment = only(objects, 'Deployment');
    expect(deployment.spec.replicas).toBe(1);
    expect(deployment.spec.strategy).toEqual({ type: 'Recreate' });
    const claim = only(objects, 'PersistentVolumeClaim');
    const pod = deployment.spec.template.spec;
    const volume = pod.volumes.find((candidate: { persistentVolumeClaim?: { claimName: string } }) => candidate.persistentVolumeClaim);
    expect(volume.persistentVolumeClaim.claimName).toBe(claim.metadata.name);
    expect(pod.containers[0].volumeMounts).toEqual(expect.arrayContaining([{ name: volume.name, mountPath: '/data' }]));
    expect(objects.map(({ kind }) => kind)).not.toEqual(expect.arrayContaining(['HorizontalPodAutoscaler']));
  });

  // Held to the operator's CRD schemas (monitoring.coreos.com/v1) like every other kind, and to what the alerts need.
  describe('prometheus-operator: a PodMonitor and the rules as a PrometheusRule', () => {
    const objects = installed ? renderKustomization('prometheus-operator') : [];

    it("is valid by the Prometheus Operator's CRD schemas and interfaces", () => {
      expect(objects.map(({ kind }) => kind).sort()).toEqual(['PodMonitor', 'PrometheusRule']);
      expect(schemaProblems(...objects)).toEqual([]);
    });

    it('scrapes the metrics port of either overlay’s pods and labels the targets as the alerts select them', () => {
      const monitor = only(objects, 'PodMonitor');
      expect(monitor.apiVersion).toBe('monitoring.coreos.com/v1');
      expect(Object.keys(monitor.spec).sort()).toEqual(['podMetricsEndpoints', 'selector']);
      expect(Object.keys(monitor.spec.selector)).toEqual(['matchLabels']);
      const [endpoint] = monitor.spec.podMetricsEndpoints;
      expect(monitor.spec.podMetricsEndpoints).toHaveLength(1);
      expect(endpoint).toEqual({ port: 'metrics', path: '/metrics', interval: expect.stringMatching(/^\d+s$/), relabelings: [{ action: 'replace', targetLabel: 'service', replacement: 'petstore' }] });
      for (const overlay of ['postgres', 'sqlite']) {
        const deployment = only(render(overlay), 'Deployment');
        expect({ overlay, selected: selects(monitor.spec.selector.matchLabels, deployment.spec.template.metadata.labels) }).toEqual({ overlay, selected: true });
        expect(deployment.spec.template.spec.containers[0].ports).toEqual(expect.arrayContaining([expect.objectContaining({ name: endpoint.port })]));
      }
      // The label the PodMonitor sets is the one the alerts on `up` select.
      const rules = readFileSync(join(ROOT, 'deploy/prometheus/petstore.rules.yml'), 'utf8');
      expect(rules).toContain(`up{${endpoint.relabelings[0].targetLabel}="${endpoint.relabelings[0].replacement}"}`);
      expect(rules).not.toContain('job="petstore"');
    });

    // That it is what `npm run prometheus-rule` writes from deploy/prometheus is tools/deploy's spec.
    it('holds rules that are each exactly one of an alert and a record', () => {
      const rule = only(objects, 'PrometheusRule');
      expect(rule.apiVersion).toBe('monitoring.coreos.com/v1');
      expect(Object.keys(rule.spec)).toEqual(['groups']);
      // schemaProblems above holds each rule's fields; what it leaves is that a rule is exactly one of alert and record.
      const entries: Array<{ alert?: string; record?: string }> = rule.spec.groups.flatMap(({ rules }: { rules: unknown[] }) => rules);
      expect(entries.filter(({ alert, record }) => (alert === undefined) === (record === undefined))).toEqual([]);
      expect(entries.filter(({ alert }) => alert)).not.toHaveLength(0);
    });
  });

  it('fails a manifest with a misspelt field or a wrong type, as it would fail in CI', () => {
    const deployment = only(render('postgres'), 'Deployment');
    const misspelt = structuredClone(deployment);
    misspelt.spec.template.spec.containers[0].readinessProbe.periodSecond = 2;
    const wrongType = structuredClone(deployment);
    wrongType.spec.replicas = 'three';
    // The schema lets the unknown field through; the interface does not.
    expect(schemaProblems(misspelt)).toEqual([expect.stringMatching(/known properties, and '"periodSecond"' does not exist in type 'IProbe'/)]);
    // Among all of an overlay's objects, checked together, the problem is named by the object it is in.
    const overlay = render('postgres').map((object) => (object.kind === 'Deployment' ? misspelt : object));
    expect(schemaProblems(...overlay)).toEqual([expect.stringMatching(/^Deployment petstore: .*'"periodSecond"' does not exist/)]);
    // Both see the wrong type.
    expect(schemaProblems(wrongType)).toEqual([
      expect.stringContaining('data/spec/replicas must be integer'),
      expect.stringContaining("Type 'string' is not assignable to type 'number'"),
    ]);
  });
});
