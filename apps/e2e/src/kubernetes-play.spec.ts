import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '@petstore/testing';
import { admin } from './support/cluster';
import { type RunningHaproxy, startHaproxy } from './support/haproxy';
import { originOf, type PlayedOverlay, playOverlay } from './support/kube-play';
import { rollUnderLoad } from './support/rolling-restart';
import { buildImage, BUILD_MS, CONTAINER_TEST_MS, containerAddress, describeWithPodman, logsOf, makeServiceImages, podman, podmanOk, waitFor200 } from './support/podman';
import { TEST_KEY } from './support/test-key';
import { withTestKey } from './support/with-test-key';

// The overlays of deploy/kubernetes, rendered by Kustomize and played by `podman kube play` (support/kube-play.ts
// says what podman plays and what is left out): the postgres overlay's replicas on a network with a PostgreSQL and a
// Redis of the test's own, checked as an operator would and rolled under load behind HAProxy; the sqlite overlay's
// one replica with its claim, replaced as `strategy: Recreate` replaces it.

const NAME = `petstore-kube-${process.pid}`;

/**
 * A request after the test's podman calls, which are synchronous and hold the event loop: first a turn of the loop,
 * so that undici sees a kept-alive connection the service closed meanwhile (idle too long, or its replica stopped)
 * rather than sending on it and failing with "other side closed". One that still fails so is sent once more, as
 * @petstore/client would, and said on stderr.
 */
async function sentAgain(request: () => Promise<Response>): Promise<Response> {
  await new Promise((resolve) => setImmediate(resolve));
  try {
    return await request();
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    if (cause?.code !== 'UND_ERR_SOCKET') throw error;
    process.stderr.write(`kube play: a connection closed before its answer (${cause.message}); sent again\n`);
    return request();
  }
}

/** POST /v1/pets with an Idempotency-Key, so that the one retry of sentAgain adds the pet once. */
const addPet = (origin: string, pet: { name: string; categoryId: number }): Promise<Response> =>
  sentAgain(() =>
    withTestKey(`${origin}/v1/pets`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': `kube-play-${pet.name}-${process.pid}` },
      body: JSON.stringify(pet),
    }),
  );
const NETWORK = NAME;
const POSTGRES = `${NAME}-postgres`;
const REDIS = `${NAME}-redis`;
const PASSWORD = 'kube-play-password';

describeWithPodman('the Kubernetes manifests, played by podman', () => {
  let databaseUrl = '';
  let postgresOverlay: PlayedOverlay | undefined;
  let haproxyPort = 0;

  beforeAll(async () => {
    buildImage();
    makeServiceImages();
    podmanOk('network', 'create', NETWORK);
    podmanOk('run', '-d', '--name', POSTGRES, '--network', NETWORK, '-e', 'POSTGRES_USER=petstore', '-e', `POSTGRES_PASSWORD=${PASSWORD}`, '-e', 'POSTGRES_DB=petstore', 'docker.io/library/postgres:17-trixie');
    podmanOk('run', '-d', '--name', REDIS, '--network', NETWORK, 'docker.io/library/redis:8-trixie');
    // The replicas reach PostgreSQL and Redis by address, not by name: podman's DNS (aardvark-dns) here can stall a
    // lookup for 5 s while another container on the network stops or starts, which is what a replacement does; every
    // replica's new connections, and their readiness with them, then waited at once, and HAProxy had no instance left.
    // A cluster's DNS does not stall on a pod's replacement.
    const postgresAddress = containerAddress(POSTGRES, NETWORK);
    const redisAddress = containerAddress(REDIS, NETWORK);
    databaseUrl = `postgres://petstore:${PASSWORD}@${postgresAddress}:5432/petstore`;
    await waitForPostgres(databaseUrl);
    haproxyPort = await freePort();
    postgresOverlay = await playOverlay('postgres', {
      name: `${NAME}-pg`,
      network: NETWORK,
      // The three keys the overlay's kustomization.yaml names.
      secret: {
        'api-keys': `${TEST_KEY}\n`,
        'database-url': databaseUrl,
        'redis-url': `redis://${redisAddress}:6379`,
      },
      // The one value an operator changes in the ConfigMap: the public address, here HAProxy's in front of the replicas.
      config: { PUBLIC_BASE_URL: `http://127.0.0.1:${haproxyPort}/v1` },
    });
  }, BUILD_MS);

  afterAll(() => {
    postgresOverlay?.remove();
    for (const container of [POSTGRES, REDIS]) podman('rm', '-f', '-t', '0', '-v', container);
    podman('network', 'rm', '-f', NETWORK);
  });

  it('runs the postgres overlay as its replicas: non-root, read-only root, secrets from files, one database for all', async () => {
    if (!postgresOverlay) throw new Error('the postgres overlay was not played');
    const { replicas, expectedReplicas } = postgresOverlay;
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

    const created = await addPet(first.origin, { name: 'Played', categoryId: 4 });
    expect(created.status).toBe(201);
    const pet = (await created.json()) as { id: number };
    for (const { origin } of others) {
      const read = await sentAgain(() => withTestKey(`${origin}/v1/pets/${pet.id}`));
      expect({ status: read.status, body: await read.json() }).toEqual({ status: 200, body: { id: pet.id, name: 'Played', categoryId: 4, status: 'available' } });
    }
    // REDIS_URL_FILE taken: every replica keeps a connection to the Redis that shares the rate limits (+1: redis-cli's).
    expect(podmanOk('exec', REDIS, 'redis-cli', 'client', 'list').split('\n').length).toBeGreaterThanOrEqual(replicas.length + 1);
  }, CONTAINER_TEST_MS);

  it('loses nothing while every replica is stopped and started again in turn under steady load behind HAProxy', async () => {
    if (!postgresOverlay) throw new Error('the postgres overlay was not played');
    const { replicas } = postgresOverlay;
    const haproxy: RunningHaproxy = await startHaproxy(
      haproxyPort,
      replicas.map(({ origin }) => new URL(origin).host),
    );
    try {
      await Promise.all(replicas.map((_, index) => haproxy.waitUntilUp(index + 1)));
      const { report, stored, sentDuring } = await rollUnderLoad({
        label: `rolling restart (podman kube play, HAProxy, ${replicas.length} replicas)`,
        origin: haproxy.origin,
        proxyLog: haproxy.log,
        databaseUrl,
        // Well below the overlay's rate limit (RATE_LIMIT_RPS=100 per key, counted for all replicas together in Redis):
        // 40 operations a second, a list walk being up to three requests, so that the load's one key is never refused.
        rate: 40,
        // As a rollout does: SIGTERM, up to the grace period for the exit, then the replica again, in a new pod sandbox
        // with a new address (podman stops a played pod with its last container), which the proxy is told.
        replacements: replicas.map(({ container }, index) => async () => {
          podmanOk('stop', '-t', '30', container);
          const [state] = JSON.parse(podmanOk('inspect', container)) as Array<{ State: { ExitCode: number } }>;
          expect({ container, exitCode: state.State.ExitCode }).toEqual({ container, exitCode: 0 });
          podmanOk('start', container);
          const origin = originOf(container, NETWORK);
          await waitFor200(`${origin}/health/ready`, () => logsOf(container));
          const { hostname, port } = new URL(origin);
          await haproxy.setServerAddress(index + 1, hostname, Number(port));
          await haproxy.waitUntilUp(index + 1);
        }),
      });
      // What the replicas warned of (a database they could not reach, say), with HAProxy's account printed by the roll.
      if (report.failures.length > 0) for (const { container } of replicas) process.stdout.write(`${container} warned:\n${warningsOf(container)}\n`);
      expect(report.failures.slice(0, 10)).toEqual([]);
      expect(sentDuring.every((sent) => sent > 0)).toBe(true);
      expect(stored.missing).toEqual([]);
      expect(stored.duplicates).toEqual([]);
    } finally {
      await haproxy.stop();
    }
  }, CONTAINER_TEST_MS);

  it('keeps the sqlite overlay\'s pets on its claim when its one replica is replaced', async () => {
    const sqlite = await playOverlay('sqlite', { name: `${NAME}-sqlite`, network: NETWORK, secret: { 'api-keys': `${TEST_KEY}\n` } });
    try {
      expect(sqlite.replicas.length).toBe(1);
      expect(sqlite.expectedReplicas).toBe(1);
      const [{ container, origin }] = sqlite.replicas;
      // The file on the claim, mounted at /data, the image's default DATABASE_URL.
      expect(podmanOk('inspect', '-f', '{{range .Mounts}}{{if eq .Destination "/data"}}{{.Name}}{{end}}{{end}}', container)).toBe(sqlite.claimVolume);
      const created = await addPet(origin, { name: 'Claimed', categoryId: 6 });
      expect(created.status).toBe(201);
      const pet = (await created.json()) as { id: number };

      // Recreate: the old pod stops before the new one opens the file.
      sqlite.down();
      const [replacement] = await sqlite.play();
      const read = await sentAgain(() => withTestKey(`${replacement.origin}/v1/pets/${pet.id}`));
      expect({ status: read.status, body: await read.json() }).toEqual({ status: 200, body: { id: pet.id, name: 'Claimed', categoryId: 6, status: 'available' } });
    } finally {
      sqlite.remove();
    }
  }, CONTAINER_TEST_MS);
});

/** A replica's log lines at warning level or above. */
function warningsOf(container: string): string {
  return podman('logs', container).stdout.split('\n').filter((line) => /"level":(40|50|60)/.test(line)).join('\n');
}

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
