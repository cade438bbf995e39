import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { type KubeObject, render } from './kustomize';
import { anonymousVolumesOf, containerAddress, IMAGE, logsOf, podman, podmanOk, waitFor200 } from './podman';

// An overlay of deploy/kubernetes played by `podman kube play` (podman 4.3). `ports:` is left out: podman would publish
// it on the host, where replicas would collide. Objects take the run's name, so nothing of an operator's is touched.

export interface Replica {
  container: string;
  /** At its pod's network address. */
  origin: string;
}

export interface PlayedOverlay {
  replicas: Replica[];
  /** How many the rendered Deployment asks for. */
  expectedReplicas: number;
  /** Stands for the PersistentVolumeClaim, if the overlay has one. */
  claimVolume?: string;
  /** `podman kube play --down`: the pods go; the claim's volume stays, as a PersistentVolume outlives its pods. */
  down(): void;
  /** Plays the same objects again (after `down`), and waits for the replicas. */
  play(): Promise<Replica[]>;
  /** Everything of the run: pods, secret and volumes (the claim's too). */
  remove(): void;
}

export interface PlayOptions {
  /** Prefix of every object's name. */
  name: string;
  network: string;
  /** The Secret's keys and values (`petstore-secrets` in the manifests). */
  secret: Record<string, string>;
  /** Values for the overlay's ConfigMap (e.g. PUBLIC_BASE_URL). */
  config?: Record<string, string>;
}

export const originOf = (container: string, network: string): string => `http://${containerAddress(container, network)}:3000`;

export async function playOverlay(overlay: string, { name, network, secret, config = {} }: PlayOptions): Promise<PlayedOverlay> {
  const dir = mkdtempSync(join(tmpdir(), `${name}-`));
  const secretName = `${name}-secrets`;
  // podman 4.3 writes each `data` value to its file as is (no base64 decoding) and ignores `stringData`, so the values
  // stand in `data` unencoded.
  writeFileSync(join(dir, 'secret.yaml'), stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: secretName }, data: secret }));
  podmanOk('secret', 'create', secretName, join(dir, 'secret.yaml'));

  const objects = render(overlay);
  const configMap = objects.find(({ kind }) => kind === 'ConfigMap');
  const claim = objects.find(({ kind }) => kind === 'PersistentVolumeClaim');
  const deployment = objects.find(({ kind }) => kind === 'Deployment');
  if (!configMap?.data || !deployment) throw new Error(`the ${overlay} overlay has no ConfigMap or no Deployment`);
  Object.assign(configMap.data, config);
  // Where an autoscaler owns the count, the Deployment has none; podman has no autoscaler, so it plays its minimum.
  const autoscaler = objects.find(({ kind }) => kind === 'HorizontalPodAutoscaler');
  deployment.spec.replicas ??= autoscaler?.spec.minReplicas;
  deployment.metadata.name = name;
  const pod = deployment.spec.template.spec;
  for (const container of pod.containers) {
    container.image = IMAGE;
    delete container.ports;
  }
  for (const volume of pod.volumes) {
    if (volume.secret) volume.secret.secretName = secretName;
    if (volume.persistentVolumeClaim && claim) volume.persistentVolumeClaim.claimName = claim.metadata.name = `${name}-data`;
  }
  const write = (file: string, ...parts: Array<KubeObject | undefined>) => {
    writeFileSync(file, parts.flatMap((object) => (object ? [stringify(object)] : [])).join('---\n'));
    return file;
  };
  const manifest = write(join(dir, 'manifest.yaml'), configMap, claim, deployment);
  // podman 4.3 refuses to play a claim whose volume exists: once made, the claim is left out, as a bound claim stays.
  const replay = write(join(dir, 'replay.yaml'), configMap, deployment);
  let claimMade = false;

  /** Anonymous volumes of every generation of pods. */
  const anonymousVolumes = new Set<string>();
  const played: PlayedOverlay = {
    replicas: [],
    expectedReplicas: deployment.spec.replicas,
    claimVolume: claim?.metadata.name,
    down: () => {
      for (const volume of anonymousVolumesOf(played.replicas.map(({ container }) => container))) anonymousVolumes.add(volume);
      podman('kube', 'play', '--down', manifest);
    },
    play: async () => {
      podmanOk('kube', 'play', '--network', network, claimMade ? replay : manifest);
      claimMade = claim !== undefined;
      played.replicas = podmanOk('ps', '-a', '--format', '{{.Names}}')
        .split('\n')
        .filter((container) => container.startsWith(`${name}-pod-`) && !container.endsWith('-infra'))
        .map((container) => ({ container, origin: originOf(container, network) }));
      await Promise.all(played.replicas.map(({ container, origin }) => waitFor200(`${origin}/health/ready`, () => logsOf(container), 120_000)));
      return played.replicas;
    },
    remove: () => {
      played.down();
      const volumes = [...anonymousVolumes, ...(played.claimVolume ? [played.claimVolume] : []), secretName];
      // A secret volume's files are written once into a volume named after the Secret, which podman 4.3 keeps.
      podman('volume', 'rm', '-f', ...volumes);
      podman('secret', 'rm', secretName);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    await played.play();
  } catch (error) {
    played.remove();
    throw error;
  }
  return played;
}
