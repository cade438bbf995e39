import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { PetstoreClient } from '@petstore/client';
import { freePort } from '@petstore/testing';
import { parse } from 'yaml';
import { anonymousVolumesOf, buildImage, BUILD_MS, CONTAINER_TEST_MS, containerAddress, describeWithPodman, IMAGE, logsOf, makeServiceImages, podman, PODMAN_ENV, podmanOk, ROOT, run, waitFor200 } from './support/podman';
import { TEST_KEY } from './support/test-key';

// compose.yaml, brought up as the README says, by podman-compose (the Debian package; `docker compose` reads the same
// file): PostgreSQL, Redis, two replicas of the image and HAProxy with deploy/haproxy/haproxy.cfg in front. The
// image is the tests' own build (PETSTORE_IMAGE, --no-build): building it inside compose would need the CA bundle
// that tools/containers/build-image.sh mounts on these machines.

const PROJECT = `petstore-compose-${process.pid}`;

interface Service {
  image: string;
  environment?: Record<string, string>;
  secrets?: string[];
  depends_on?: Record<string, { condition?: string }> | string[];
  healthcheck?: { test: string[] };
  cap_drop?: string[];
  cap_add?: string[];
  security_opt?: string[];
}
/** compose.yaml as compose reads it (its x- fragments merged into the services). */
const COMPOSE = parse(readFileSync(join(ROOT, 'compose.yaml'), 'utf8'), { merge: true }) as { services: Record<string, Service>; secrets: Record<string, { file: string }> };
const SERVICES = Object.entries(COMPOSE.services);
/** The services running this repository's image. */
const OURS = SERVICES.filter(([, service]) => service.image.includes('PETSTORE_IMAGE')).map(([name]) => name);

/** The services beside ours, at the major versions Debian 13 "trixie" ships (tools/containers/service-images.sh). */
const CURRENT_IMAGES = { postgres: 'postgres:17-trixie', redis: 'redis:8-trixie', haproxy: 'haproxy:3.0-trixie' };

// What podman-compose 1.0.3 ignores (depends_on's conditions, hence --wait's meaning) or cannot show (Docker Compose's
// reading of the file), checked in the file itself; the running stack below proves the checks and the secrets work.
describe('compose.yaml, as Docker Compose reads it', () => {
  it('runs two instances of our image', () => {
    expect(OURS).toEqual(['api1', 'api2']);
  });

  it('gives every service a healthcheck, and starts each only once what it depends on is healthy (up --wait)', () => {
    for (const [name, service] of SERVICES) {
      expect({ name, test: service.healthcheck?.test?.[0] }).toEqual({ name, test: expect.stringMatching(/^CMD(-SHELL)?$/) });
      const conditions = Object.values(service.depends_on ?? {}).map((dependency: { condition?: string }) => dependency.condition);
      expect({ name, conditions }).toEqual({ name, conditions: conditions.map(() => 'service_healthy') });
    }
    expect(Object.keys(COMPOSE.services.haproxy.depends_on ?? {}).sort()).toEqual(OURS);
  });

  it("tells callers HAProxy's published port, where they reach the instances, for next links and the document", () => {
    // "127.0.0.1:${PETSTORE_PORT:-8080}:8080": the host's port between the address and the container's.
    const mapping = (COMPOSE.services.haproxy as { ports?: string[] }).ports?.[0] ?? '';
    const published = mapping.slice(mapping.indexOf(':') + 1, mapping.lastIndexOf(':'));
    expect(published).toBe('${PETSTORE_PORT:-8080}');
    for (const name of OURS) {
      expect({ name, told: COMPOSE.services[name].environment?.PUBLIC_BASE_URL }).toEqual({ name, told: `http://localhost:${published}/v1` });
    }
  });

  it('hands the keys and the database password over as secrets, each read through a _FILE variable, none in the environment', () => {
    const used = new Set<string>();
    for (const [name, service] of SERVICES) {
      const environment = service.environment ?? {};
      for (const secret of service.secrets ?? []) {
        used.add(secret);
        expect({ name, secret, readBy: Object.keys(environment).filter((variable) => environment[variable] === `/run/secrets/${secret}`) }).toEqual({ name, secret, readBy: [expect.stringMatching(/_FILE$/)] });
      }
      for (const variable of ['API_KEYS', 'DATABASE_URL', 'POSTGRES_PASSWORD']) expect({ name, variable, value: environment[variable] || undefined }).toEqual({ name, variable, value: undefined });
    }
    expect([...used].sort()).toEqual(Object.keys(COMPOSE.secrets).sort());
    expect(Object.values(COMPOSE.secrets).every((secret) => secret.file)).toBe(true);
  });

  it("runs PostgreSQL, Redis and HAProxy at Debian 13's majors, on Debian 13 images", () => {
    const images = Object.fromEntries(SERVICES.filter(([name]) => !OURS.includes(name)).map(([name, service]) => [name, service.image]));
    expect(images).toEqual(CURRENT_IMAGES);
  });

  it('drops every capability and forbids new privileges in every container; only the database and Redis add back what their entrypoints need', () => {
    for (const [name, service] of SERVICES) {
      expect({ name, drop: service.cap_drop, security: service.security_opt }).toEqual({ name, drop: ['ALL'], security: ['no-new-privileges:true'] });
      if (!['postgres', 'redis'].includes(name)) expect({ name, add: service.cap_add }).toEqual({ name, add: undefined });
    }
  });
});

describeWithPodman('compose.yaml', () => {
  let port = 0;
  let origin = '';
  // The keys as a user gives them: a file, readable by the image's user.
  const secrets = mkdtempSync(join(tmpdir(), 'petstore-compose-'));
  const keysFile = join(secrets, 'keys');
  writeFileSync(keysFile, `${TEST_KEY}\n`, { mode: 0o644 });
  const compose = (env: Record<string, string>, ...args: string[]) => {
    // Only what each call gives: a key in the environment of the test run is not compose's.
    const inherited = { ...PODMAN_ENV };
    delete inherited.PETSTORE_API_KEYS_FILE;
    return run('podman-compose', ['-p', PROJECT, '-f', 'compose.yaml', ...args], { env: { ...inherited, ...env }, timeout: 5 * 60_000 });
  };
  const composeOk = (...args: string[]) => {
    const result = compose({ PETSTORE_API_KEYS_FILE: keysFile, PETSTORE_IMAGE: IMAGE, PETSTORE_PORT: String(port) }, ...args);
    if (result.status !== 0) throw new Error(`podman-compose ${args.join(' ')} failed (${result.status}):\n${result.stdout.slice(-3000)}\n${result.stderr.slice(-3000)}`);
    return result.stdout;
  };
  /** The container of a service of this project. */
  const containerOf = (service: string) =>
    podmanOk('ps', '-a', '--filter', `label=io.podman.compose.project=${PROJECT}`, '--filter', `label=com.docker.compose.service=${service}`, '--format', '{{.Names}}');

  beforeAll(async () => {
    buildImage();
    makeServiceImages();
    port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    composeOk('up', '-d', '--no-build');
    // Ready through HAProxy once an instance has migrated PostgreSQL and is in the pool (an instance that started before
    // PostgreSQL took connections waits for it).
    await waitFor200(`${origin}/health/ready`, () => ['api1', 'api2', 'haproxy'].map((service) => logsOf(containerOf(service))).join('\n'), 180_000);
  }, BUILD_MS);

  /**
   * Reads as a client does, through @petstore/client: a 503's Retry-After honoured and a GET lost in transit sent again,
   * so that a moment of a loaded machine (an instance's database heartbeat late, HAProxy between two checks) is not a
   * failure; anything else still is.
   */
  const reader = () => new PetstoreClient({ baseUrl: `${origin}/v1`, apiKey: TEST_KEY, maxRetries: 10, maxRetryDelayMs: 2_000, logger: { warn: () => undefined } });

  /** The project's containers' anonymous volumes, remembered before each `down` (podman-compose 1.0.3 leaves them). */
  const anonymousVolumes = new Set<string>();
  const rememberVolumes = () => {
    const containers = podman('ps', '-a', '--filter', `label=io.podman.compose.project=${PROJECT}`, '--format', '{{.Names}}').stdout.split('\n');
    for (const volume of anonymousVolumesOf(containers.filter(Boolean))) anonymousVolumes.add(volume);
  };

  afterAll(() => {
    rememberVolumes();
    compose({ PETSTORE_API_KEYS_FILE: keysFile, PETSTORE_IMAGE: IMAGE }, 'down', '-v', '-t', '10');
    rmSync(secrets, { recursive: true, force: true });
    // What podman-compose 1.0.3 leaves behind, and `docker compose down -v` removes.
    if (anonymousVolumes.size > 0) podman('volume', 'rm', '-f', ...anonymousVolumes);
    podman('network', 'rm', '-f', `${PROJECT}_default`);
  });

  it('will not start without the API keys, and says which variable is missing', () => {
    const refused = compose({}, 'ps');
    expect(refused.status).not.toBe(0);
    expect(`${refused.stdout}${refused.stderr}`).toContain('PETSTORE_API_KEYS_FILE');
  });

  it("passes every service's healthcheck, run in its container as compose's test says", async () => {
    // podman-compose 1.0.3 mangles CMD tests and runs none on a timer: each is run as Docker runs it, and retried as
    // Docker retries through a start period (a generous deadline for a stuck stack, not a verdict).
    for (const [name, service] of SERVICES) {
      const [kind, ...words] = service.healthcheck?.test ?? [];
      const container = containerOf(name);
      const check = () => podman('exec', container, ...(kind === 'CMD-SHELL' ? ['/bin/sh', '-c', ...words] : words));
      let checked = check();
      for (const deadline = Date.now() + 120_000; checked.status !== 0 && Date.now() < deadline; checked = check()) await sleep(1_000);
      expect({ name, status: checked.status, stderr: checked.stderr }).toEqual({ name, status: 0, stderr: '' });
    }
  }, CONTAINER_TEST_MS);

  it("runs the versions its images' names promise, on Debian 13", () => {
    const versionOf = { postgres: ['postgres', '--version'], redis: ['redis-server', '--version'], haproxy: ['haproxy', '-v'] };
    for (const [name, command] of Object.entries(versionOf)) {
      const major = /:(\d+(?:\.\d+)?)-trixie$/.exec(COMPOSE.services[name].image)?.[1];
      const container = containerOf(name);
      // "postgres (PostgreSQL) N.N …", "Redis server v=N.N.N …", "HAProxy version N.N.N …"
      expect({ name, version: /(?:\) |v=|version )(\d+\.\d+)/.exec(podmanOk('exec', container, ...command))?.[1] }).toEqual({ name, version: expect.stringMatching(new RegExp(`^${major?.replace('.', '\\.')}(\\.|$)`)) });
      expect({ name, debian: podmanOk('exec', container, 'cat', '/etc/debian_version') }).toEqual({ name, debian: expect.stringMatching(/^13\./) });
    }
  });

  it('runs the containers without capabilities or new privileges, with the secrets as files and not in their environment', () => {
    for (const [name] of SERVICES) {
      const [inspected] = JSON.parse(podmanOk('inspect', containerOf(name))) as { EffectiveCaps: string[] | null; HostConfig: { SecurityOpt: string[] }; Config: { Env: string[] } }[];
      expect({ name, noNewPrivileges: inspected.HostConfig.SecurityOpt.includes('no-new-privileges') }).toEqual({ name, noNewPrivileges: true });
      if (OURS.includes(name) || name === 'haproxy') expect({ name, caps: inspected.EffectiveCaps ?? [] }).toEqual({ name, caps: [] });
      const environment = inspected.Config.Env.join('\n');
      expect({ name, key: environment.includes(TEST_KEY), url: environment.includes('postgres://'), password: /POSTGRES_PASSWORD=/.test(environment) }).toEqual({ name, key: false, url: false, password: false });
    }
    // The instances read the keys from the file: the stack answered with the key (beforeAll), and the file is there.
    expect(podmanOk('exec', containerOf('api1'), 'node', '-p', "require('fs').readFileSync('/run/secrets/api_keys', 'utf8')")).toBe(TEST_KEY);
  });

  it('serves a pet created through HAProxy from both replicas, and keeps it on its volume across down and up', async () => {
    // Through the client, as a consumer creates one: a 503 with Retry-After (a heartbeat late on a loaded machine) is
    // sent again with the same Idempotency-Key, and the pet is stored once.
    const pet = await reader().createPet({ name: 'Composed', categoryId: 5 });
    expect(pet).toMatchObject({ name: 'Composed', categoryId: 5, status: 'available' });

    // Round robin: consecutive reads go to both replicas once both are in the pool, each read from PostgreSQL.
    const served = new Set<string>();
    const deadline = Date.now() + 60_000;
    while (served.size < 2 && Date.now() < deadline) {
      expect(await reader().getPet(pet.id)).toEqual({ id: pet.id, name: 'Composed', categoryId: 5, status: 'available' });
      const reads = new RegExp(` petstore/(api\\d) .*"GET /v1/pets/${pet.id} `, 'g');
      for (const [, server] of logsOf(containerOf('haproxy')).matchAll(reads)) served.add(server);
    }
    expect([...served].sort()).toEqual(['api1', 'api2']);

    rememberVolumes();
    composeOk('down', '-t', '10');
    expect(podman('volume', 'exists', `${PROJECT}_postgres-data`).status).toBe(0);
    composeOk('up', '-d', '--no-build');
    await waitFor200(`${origin}/health/ready`, () => logsOf(containerOf('haproxy')), 180_000);
    expect(await reader().getPet(pet.id)).toMatchObject({ id: pet.id });
  }, CONTAINER_TEST_MS);

  it('takes a recreated instance back into the pool at the new address it comes back with', async () => {
    const haproxy = containerOf('haproxy');
    const servedBy = (server: string) => (podman('logs', haproxy).stdout.match(new RegExp(` petstore/${server} `, 'g')) ?? []).length;
    const addressOf = () => containerAddress(containerOf('api1'), `${PROJECT}_default`);
    const oldAddress = addressOf();
    // As `docker compose up` does for a new image: the container is stopped (SIGTERM), removed and created again.
    rememberVolumes();
    podmanOk('rm', '-f', '-t', '10', containerOf('api1'));
    composeOk('up', '-d', '--no-build', '--no-deps', 'api1');
    const newAddress = addressOf();
    const before = servedBy('api1');
    // HAProxy looks the name up again (haproxy.cfg's resolvers) and checks it back in: reads reach api1 again.
    const deadline = Date.now() + 90_000;
    while (servedBy('api1') === before && Date.now() < deadline) {
      // Through the client, which sends a GET lost in transit again: the pooled connection sat idle while the instance
      // was recreated, past HAProxy's keep-alive timeout, and a request sent as HAProxy closes it is lost.
      await expect(reader().listPets({ limit: 1 })).resolves.toMatchObject({ pets: expect.any(Array) });
      await sleep(200);
    }
    expect({ oldAddress, newAddress, servedByApi1: servedBy('api1') > before }).toEqual({ oldAddress, newAddress, servedByApi1: true });
  }, CONTAINER_TEST_MS);
}, ['podman-compose']);
