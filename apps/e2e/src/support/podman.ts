import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { onPath } from './prometheus';

// Podman for the tests of the image and of what runs it (Kubernetes manifests, compose.yaml).

export const ROOT = join(__dirname, '../../../..');

/** Built from the Containerfile by tools/containers/build-image.sh. */
export const IMAGE = 'localhost/petstore:e2e';

/** Each container test starts containers and waits for them: room for a machine many times busier. */
export const CONTAINER_TEST_MS = 5 * 60_000;

export const podmanInstalled = onPath('podman');

/**
 * Skips the suite where podman or the other `commands` are missing; under CI, which installs them, a missing one is a
 * broken runner and the suite fails instead.
 */
export function describeWithPodman(name: string, tests: () => void, commands: string[] = []): void {
  const missing = ['podman', ...commands].filter((command) => !onPath(command));
  if (missing.length === 0 || process.env.CI === 'true') return describe(name, tests);
  console.warn(`Skipping "${name}": ${missing.join(', ')} not on PATH (apt-get install -y ${missing.join(' ')} runc netavark iptables debootstrap).`);
  describe.skip(name, tests);
}

/** The repository's podman settings for these machines, unless the caller has chosen others. */
export const PODMAN_ENV: NodeJS.ProcessEnv = { ...process.env, CONTAINERS_CONF: process.env.CONTAINERS_CONF ?? join(ROOT, 'tools/containers/containers.conf') };

export interface CommandRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function run(command: string, args: string[], options: { env?: NodeJS.ProcessEnv; timeout?: number; input?: string } = {}): CommandRun {
  const result = spawnSync(command, args, { cwd: ROOT, encoding: 'utf8', env: options.env ?? PODMAN_ENV, timeout: options.timeout ?? 120_000, input: options.input });
  return { status: result.status, stdout: (result.stdout ?? '').trim(), stderr: `${result.stderr ?? ''}${result.error ? ` ${result.error.message}` : ''}`.trim() };
}

export const podman = (...args: string[]): CommandRun => run('podman', args);

export function podmanOk(...args: string[]): string {
  const result = podman(...args);
  if (result.status !== 0) throw new Error(`podman ${args.join(' ')} failed (${result.status}): ${result.stderr}`);
  return result.stdout;
}

/** One machine-wide lock, so that parallel Jest workers do not build the same images side by side. */
function underBuildLock(script: string, args: string[] = []): void {
  if (!podmanInstalled) throw new Error('podman is not on PATH: .ci/run installs it');
  const result = run('flock', ['/tmp/petstore-podman-build.lock', join(ROOT, 'tools/containers', script), ...args], { timeout: 40 * 60_000 });
  if (result.status !== 0) throw new Error(`${script} failed (${result.status}):\n${result.stdout.slice(-4000)}\n${result.stderr.slice(-4000)}`);
}

/** The service's image, as an operator builds it. */
export const buildImage = (): void => underBuildLock('build-image.sh', [IMAGE]);

/** PostgreSQL, Redis and HAProxy under their official names: pulled, or made from Debian's packages. */
export const makeServiceImages = (): void => underBuildLock('service-images.sh');

/** A setup step that may build images: a cold build compiles sqlite3 (docs/performance.md, "The container image"). */
export const BUILD_MS = 45 * 60_000;

/** This machine reaches it directly (podman runs as root). */
export function containerAddress(container: string, network: string): string {
  const address = podmanOk('inspect', '-f', `{{(index .NetworkSettings.Networks "${network}").IPAddress}}`, container);
  if (!/^\d+\.\d+\.\d+\.\d+$/.test(address)) throw new Error(`${container} has no address on ${network}: "${address}"`);
  return address;
}

/** Waits for `url` to answer 200, else throws with what `describe()` tells (a container's log). */
export async function waitFor200(url: string, describe: () => string, waitMs = 60_000): Promise<void> {
  const deadline = Date.now() + waitMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    last = await fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
      (response) => String(response.status),
      (error: Error) => error.message,
    );
    if (last === '200') return;
    await sleep(250);
  }
  throw new Error(`${url} never answered 200 (last: ${last}):\n${describe()}`);
}

/** Podman keeps stdout and stderr apart; both matter here. */
export function logsOf(container: string): string {
  const logs = podman('logs', '--tail', '60', container);
  return `${logs.stdout}\n${logs.stderr}`;
}

/**
 * Neither `kube play --down` nor podman-compose's `down -v` removes anonymous volumes (the image's VOLUME /data), so a
 * suite collects them first and removes them after.
 */
export function anonymousVolumesOf(containers: string[]): string[] {
  if (containers.length === 0) return [];
  const mounts = podman('inspect', '--format', '{{range .Mounts}}{{if eq .Type "volume"}}{{.Name}} {{end}}{{end}}', ...containers).stdout;
  return mounts.split(/\s+/).filter((name) => /^[0-9a-f]{64}$/.test(name));
}
