import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';

/** deploy/kubernetes: a Kustomize base and its overlays. */
export const KUSTOMIZE = join(__dirname, '../../../../deploy/kubernetes');

export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string };
  // The tests read into what they check; the schema check covers the rest.
  spec?: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  data?: Record<string, string>;
}

/** An overlay as `kubectl apply -k` renders it (Kustomize, offline). */
export function render(overlay: string): KubeObject[] {
  return renderKustomization(join('overlays', overlay));
}

/** `kubectl kustomize`'s output by folder: rendered once, parsed afresh on every call (callers change what they get). */
const rendered = new Map<string, string>();

/** A kustomization under deploy/kubernetes, by its folder there, as `kubectl apply -k` renders it. */
export function renderKustomization(folder: string): KubeObject[] {
  let yaml = rendered.get(folder);
  if (yaml === undefined) {
    const run = spawnSync('kubectl', ['kustomize', join(KUSTOMIZE, folder)], { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`kubectl kustomize ${folder} failed: ${run.stderr}`);
    yaml = run.stdout;
    rendered.set(folder, yaml);
  }
  return parseAllDocuments(yaml).map((document) => document.toJS() as KubeObject);
}
