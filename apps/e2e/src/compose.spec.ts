import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '@petstore/testing';
import { anonymousVolumesOf, buildImage, BUILD_MS, CONTAINER_TEST_MS, containerAddress, describeWithPodman, IMAGE, logsOf, makeServiceImages, podman, PODMAN_ENV, podmanOk, run, waitFor200 } from './support/podman';
import { TEST_KEY } from './support/test-key';
import { postPet, withTestKey } from './support/with-test-key';

// compose.yaml, brought up as the README says, by podman-compose (the Debian package; `docker compose` reads the same
// file): PostgreSQL, Redis, two replicas of the image and HAProxy with deploy/haproxy/haproxy.cfg in front. The
// image is the tests' own build (PETSTORE_IMAGE, --no-build): building it inside compose would need the CA bundle
// that tools/containers/build-image.sh mounts on these machines.

const PROJECT = `petstore-compose-${process.pid}`;

describeWithPodman('compose.yaml', () => {
  let port = 0;
  let origin = '';
  const compose = (env: Record<string, string>, ...args: string[]) => {
    // Only what each call gives: a key in the environment of the test run is not compose's.
    const inherited = { ...PODMAN_ENV };
    delete inherited.PETSTORE_API_KEYS;
    return run('podman-compose', ['-p', PROJECT, '-f', 'compose.yaml', ...args], { env: { ...inherited, ...env }, timeout: 5 * 60_000 });
  };
  const composeOk = (...args: string[]) => {
    const result = compose({ PETSTORE_API_KEYS: TEST_KEY, PETSTORE_IMAGE: IMAGE, PETSTORE_PORT: String(port) }, ...args);
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

  /** The project's containers' anonymous volumes, remembered before each `down` (podman-compose 1.0.3 leaves them). */
  const anonymousVolumes = new Set<string>();
  const rememberVolumes = () => {
    const containers = podman('ps', '-a', '--filter', `label=io.podman.compose.project=${PROJECT}`, '--format', '{{.Names}}').stdout.split('\n');
    for (const volume of anonymousVolumesOf(containers.filter(Boolean))) anonymousVolumes.add(volume);
  };

  afterAll(() => {
    rememberVolumes();
    compose({ PETSTORE_API_KEYS: TEST_KEY, PETSTORE_IMAGE: IMAGE }, 'down', '-v', '-t', '10');
    // What podman-compose 1.0.3 leaves behind, and `docker compose down -v` removes.
    if (anonymousVolumes.size > 0) podman('volume', 'rm', '-f', ...anonymousVolumes);
    podman('network', 'rm', '-f', `${PROJECT}_default`);
  });

  it('will not start without the API keys, and says which variable is missing', () => {
    const refused = compose({}, 'ps');
    expect(refused.status).not.toBe(0);
    expect(`${refused.stdout}${refused.stderr}`).toContain('PETSTORE_API_KEYS');
  });

  it('serves a pet created through HAProxy from both replicas, and keeps it on its volume across down and up', async () => {
    const created = await postPet(origin, { name: 'Composed', categoryId: 5 });
    expect(created.status).toBe(201);
    const pet = (await created.json()) as { id: number };

    // Round robin: consecutive reads go to both replicas once both are in the pool, each read from PostgreSQL.
    const served = new Set<string>();
    const deadline = Date.now() + 60_000;
    while (served.size < 2 && Date.now() < deadline) {
      const read = await withTestKey(`${origin}/v1/pets/${pet.id}`);
      expect({ status: read.status, body: await read.json() }).toEqual({ status: 200, body: { id: pet.id, name: 'Composed', categoryId: 5, status: 'available' } });
      const reads = new RegExp(` petstore/(api\\d) .*"GET /v1/pets/${pet.id} `, 'g');
      for (const [, server] of logsOf(containerOf('haproxy')).matchAll(reads)) served.add(server);
    }
    expect([...served].sort()).toEqual(['api1', 'api2']);

    rememberVolumes();
    composeOk('down', '-t', '10');
    expect(podman('volume', 'exists', `${PROJECT}_postgres-data`).status).toBe(0);
    composeOk('up', '-d', '--no-build');
    await waitFor200(`${origin}/health/ready`, () => logsOf(containerOf('haproxy')), 180_000);
    const again = await withTestKey(`${origin}/v1/pets/${pet.id}`);
    expect(again.status).toBe(200);
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
      // Retried once if it fails in transit, as a client retries a GET: the pooled connection sat idle while the
      // instance was recreated, past HAProxy's keep-alive timeout, and a request sent as HAProxy closes it is lost
      // (undici: "other side closed"); what HAProxy answers must still be 200.
      const read = () => withTestKey(`${origin}/v1/pets?limit=1`);
      expect((await read().catch(read)).status).toBe(200);
      await sleep(200);
    }
    expect({ oldAddress, newAddress, servedByApi1: servedBy('api1') > before }).toEqual({ oldAddress, newAddress, servedByApi1: true });
  }, CONTAINER_TEST_MS);
}, ['podman-compose']);
