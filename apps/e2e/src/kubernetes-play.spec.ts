import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '@petstore/testing';
import { stringify } from 'yaml';
import { admin, checkStored } from './support/cluster';
import { type RunningHaproxy, startHaproxy } from './support/haproxy';
import { type KubeObject, render } from './support/kustomize';
import { startLoad } from './support/load';
import {
  anonymousVolumesOf,
  buildImage,
  BUILD_MS,
  CONTAINER_TEST_MS,
  containerAddress,
  describeWithPodman,
  IMAGE,
  logsOf,
  makeServiceImages,
  podman,
  podmanOk,
  waitFor200,
} from './support/podman';
import { TEST_KEY } from './support/test-key';

// The postgres overlay of deploy/kubernetes, rendered by Kustomize and played by `podman kube play`: its Deployment's
// replicas, with the overlay's ConfigMap, the Deployment's security context, read-only root, /tmp and secrets mounted
// as files, on a network with a PostgreSQL and a Redis of the test's own. The Secret the pods mount is a podman
// secret holding a Secret's YAML (podman 4.3 plays no Secret kind, but mounts such a podman secret as a secret volume).
// What podman cannot play is left out, and only that (../shared/toolchain.md, "Containers"): it publishes every
// containerPort on the host, where replicas would collide, so the ports go and each pod is reached at its address.

const NAME = `petstore-kube-${process.pid}`;
const NETWORK = NAME;
const POSTGRES = `${NAME}-postgres`;
const REDIS = `${NAME}-redis`;
const SECRET = `${NAME}-secrets`;
const PASSWORD = 'kube-play-password';
/** HAProxy checks every 500 ms and needs two good answers: a restarted replica is in the pool within this. */
const HAPROXY_RISE_MS = 1_500;

/** A replica's API at its pod's address on the network. */
const originOf = (container: string) => `http://${containerAddress(container, NETWORK)}:3000`;

interface Replica {
  container: string;
  origin: string;
}

/**
 * The overlay's ConfigMap and Deployment as podman can play them, and the Deployment's replica count. The ConfigMap
 * gets the one value an operator changes there: the public address, here HAProxy's in front of the replicas.
 */
function playable(objects: KubeObject[], { secretName, publicBaseUrl }: { secretName: string; publicBaseUrl: string }): { yaml: string; replicas: number } {
  const configMap = objects.find(({ kind }) => kind === 'ConfigMap');
  const deployment = objects.find(({ kind }) => kind === 'Deployment');
  if (!configMap?.data || !deployment) throw new Error('the overlay has no ConfigMap or no Deployment');
  configMap.data.PUBLIC_BASE_URL = publicBaseUrl;
  deployment.metadata.name = NAME;
  const pod = deployment.spec.template.spec;
  for (const container of pod.containers) {
    container.image = IMAGE;
    delete container.ports;
  }
  for (const volume of pod.volumes) if (volume.secret) volume.secret.secretName = secretName;
  return { yaml: [configMap, deployment].map((object) => stringify(object)).join('---\n'), replicas: deployment.spec.replicas };
}

describeWithPodman('the Kubernetes manifests, played by podman', () => {
  const secretsDir = mkdtempSync(join(tmpdir(), 'petstore-kube-secrets-'));
  const manifest = join(secretsDir, '..', `${NAME}.yaml`);
  let databaseUrl = '';
  let replicas: Replica[] = [];
  let expectedReplicas = 0;
  let haproxyPort = 0;

  beforeAll(async () => {
    buildImage();
    makeServiceImages();
    podmanOk('network', 'create', NETWORK);
    podmanOk('run', '-d', '--name', POSTGRES, '--network', NETWORK, '-e', 'POSTGRES_USER=petstore', '-e', `POSTGRES_PASSWORD=${PASSWORD}`, '-e', 'POSTGRES_DB=petstore', 'docker.io/library/postgres:15-bookworm');
    podmanOk('run', '-d', '--name', REDIS, '--network', NETWORK, 'docker.io/library/redis:7-bookworm');
    databaseUrl = `postgres://petstore:${PASSWORD}@${containerAddress(POSTGRES, NETWORK)}:5432/petstore`;
    await waitForPostgres(databaseUrl);

    // The Secret with the three keys the overlay's kustomization.yaml names. podman 4.3 writes each value of `data` to
    // its file as it finds it (no base64 decoding: kubectl's output would arrive encoded) and ignores `stringData`, so
    // the values stand in `data` as they are.
    const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: SECRET }, data: {
      'api-keys': `${TEST_KEY}\n`,
      'database-url': `postgres://petstore:${PASSWORD}@${POSTGRES}:5432/petstore`,
      'redis-url': `redis://${REDIS}:6379`,
    } };
    writeFileSync(join(secretsDir, 'secret.yaml'), stringify(secret));
    podmanOk('secret', 'create', SECRET, join(secretsDir, 'secret.yaml'));

    haproxyPort = await freePort();
    const { yaml, replicas: count } = playable(render('postgres'), { secretName: SECRET, publicBaseUrl: `http://127.0.0.1:${haproxyPort}/v1` });
    expectedReplicas = count;
    writeFileSync(manifest, yaml);
    podmanOk('kube', 'play', '--network', NETWORK, manifest);
    replicas = podmanOk('ps', '-a', '--format', '{{.Names}}')
      .split('\n')
      .filter((container) => container.startsWith(`${NAME}-pod-`) && !container.endsWith('-infra'))
      .map((container) => ({ container, origin: originOf(container) }));
    await Promise.all(replicas.map(({ container, origin }) => waitFor200(`${origin}/health/ready`, () => logsOf(container), 120_000)));
  }, BUILD_MS);

  afterAll(() => {
    const volumes = anonymousVolumesOf(replicas.map(({ container }) => container));
    podman('kube', 'play', '--down', manifest);
    if (volumes.length > 0) podman('volume', 'rm', '-f', ...volumes);
    for (const container of [POSTGRES, REDIS]) podman('rm', '-f', '-t', '0', '-v', container);
    podman('network', 'rm', '-f', NETWORK);
    podman('secret', 'rm', SECRET);
    // podman 4.3 writes a secret volume's files once, into a volume named after the Secret, and keeps it.
    podman('volume', 'rm', '-f', SECRET);
    rmSync(secretsDir, { recursive: true, force: true });
    rmSync(manifest, { force: true });
  });

  it('runs the Deployment as its replicas: non-root, read-only root, secrets from files, one database for all', async () => {
    expect(replicas.length).toBe(expectedReplicas);
    expect(replicas.length).toBeGreaterThanOrEqual(2);
    const [first, ...others] = replicas;
    expect(podmanOk('exec', first.container, 'id', '-u')).toBe('1000');
    // The pod's and container's securityContext, as the kernel applies them: no capability, no privilege escalation,
    // seccomp filtering (mode 2), and a read-only root with a writable /tmp (the emptyDir).
    const status = podmanOk('exec', first.container, 'grep', '-E', '^(CapEff|NoNewPrivs|Seccomp):', '/proc/self/status');
    expect(Object.fromEntries(status.split('\n').map((line) => line.split(/:\s+/)))).toEqual({ CapEff: '0000000000000000', NoNewPrivs: '1', Seccomp: '2' });
    expect(podmanOk('inspect', '-f', '{{.HostConfig.ReadonlyRootfs}}', first.container)).toBe('true');
    // The secrets as files where the _FILE variables point, and none of them in the environment.
    expect(podmanOk('exec', first.container, 'ls', '/run/secrets/petstore').split('\n')).toEqual(['api-keys', 'database-url', 'redis-url']);
    expect(podmanOk('exec', first.container, 'env')).not.toContain(TEST_KEY);
    expect(podman('exec', first.container, 'touch', '/app/written').status).not.toBe(0);
    expect(podmanOk('exec', first.container, 'sh', '-c', 'touch /tmp/written && echo ok')).toBe('ok');

    const created = await fetch(`${first.origin}/v1/pets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Played', categoryId: 4 }),
    });
    expect(created.status).toBe(201);
    const pet = (await created.json()) as { id: number };
    for (const { origin } of others) {
      const read = await fetch(`${origin}/v1/pets/${pet.id}`, { headers: { authorization: `Bearer ${TEST_KEY}` } });
      expect({ status: read.status, body: await read.json() }).toEqual({ status: 200, body: { id: pet.id, name: 'Played', categoryId: 4, status: 'available' } });
    }
    // REDIS_URL_FILE taken: every replica keeps a connection to the Redis that shares the rate limits (+1: redis-cli's).
    expect(podmanOk('exec', REDIS, 'redis-cli', 'client', 'list').split('\n').length).toBeGreaterThanOrEqual(replicas.length + 1);
  }, CONTAINER_TEST_MS);

  it('loses nothing while every replica is stopped and started again in turn under steady load behind HAProxy', async () => {
    const haproxy: RunningHaproxy = await startHaproxy(
      haproxyPort,
      replicas.map(({ origin }) => new URL(origin).host),
    );
    await sleep(HAPROXY_RISE_MS);
    const prefix = `kube-roll-${Date.now()}-`;
    // Well below the overlay's rate limit (RATE_LIMIT_RPS=100 per key, counted for all replicas together in Redis): 40
    // operations a second, a list walk being up to three requests, so that the load's one key is never refused.
    const load = startLoad({ origin: haproxy.origin, key: TEST_KEY, rate: 40, prefix });
    try {
      const started = Date.now();
      await sleep(4_000);
      /** Requests sent while each replica was replaced: the load must overlap every replacement. */
      const sentDuring: number[] = [];
      for (const [index, { container }] of replicas.entries()) {
        const sentBefore = load.sent();
        // As a rollout does: SIGTERM, up to the grace period for the exit, then the replica again, in a new pod
        // sandbox with a new address (podman stops a played pod with its last container), which the proxy is told.
        podmanOk('stop', '-t', '30', container);
        const [state] = JSON.parse(podmanOk('inspect', container)) as Array<{ State: { ExitCode: number } }>;
        expect({ container, exitCode: state.State.ExitCode }).toEqual({ container, exitCode: 0 });
        podmanOk('start', container);
        const origin = originOf(container);
        await waitFor200(`${origin}/health/ready`, () => logsOf(container));
        const { hostname, port } = new URL(origin);
        await haproxy.setServerAddress(index + 1, hostname, Number(port));
        await sleep(HAPROXY_RISE_MS);
        sentDuring.push(load.sent() - sentBefore);
      }
      await sleep(Math.max(0, 30_000 - (Date.now() - started)));
      const report = await load.stop();
      const seconds = (Date.now() - started) / 1000;
      const stored = await checkStored(databaseUrl, prefix, report);
      process.stdout.write(
        `rolling restart (podman kube play, HAProxy, ${replicas.length} replicas): ${report.sent} requests in ${seconds.toFixed(0)} s, ` +
          `${report.failures.length} failed, ${report.acknowledged.size} acknowledged creates, ${stored.present} present, ` +
          `${stored.duplicates.length} duplicates; sent during each replacement: ${sentDuring.join(', ')}\n`,
      );
      expect(report.failures.slice(0, 10)).toEqual([]);
      expect(sentDuring.every((sent) => sent > 0)).toBe(true);
      expect(stored.missing).toEqual([]);
      expect(stored.duplicates).toEqual([]);
    } finally {
      await load.stop();
      await haproxy.stop();
    }
  }, CONTAINER_TEST_MS);
});

/** PostgreSQL's first start makes its cluster: wait until it takes the password over the network. */
async function waitForPostgres(url: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      await admin((client) => client.query('SELECT 1'), url);
      return;
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`PostgreSQL never answered at ${url}: ${(error as Error).message}\n${logsOf(POSTGRES)}`, { cause: error });
      await sleep(500);
    }
  }
}
