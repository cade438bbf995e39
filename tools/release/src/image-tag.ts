/** The kustomization whose `images:` names the tag every deployment runs; `npm run release` keeps it at the release. */
export const MANIFEST_IMAGES = 'deploy/kubernetes/base/kustomization.yaml';

/** The kustomization with the petstore image's `newTag` set to `version`. */
export function withImageTag(kustomization: string, version: string): string {
  const pattern = /(- name: petstore\n\s+newTag: ).*/;
  if (!pattern.test(kustomization)) throw new Error(`${MANIFEST_IMAGES} names no newTag for the petstore image`);
  return kustomization.replace(pattern, `$1${version}`);
}

/** The tag the kustomization deploys, if it names one. */
export const imageTagOf = (kustomization: string): string | undefined => /- name: petstore\n\s+newTag: (\S+)/.exec(kustomization)?.[1];
