#!/usr/bin/env bash
# Usage: [NODE_IMAGE=…@sha256:…] [RUNTIME_IMAGE=…@sha256:…] tools/containers/build-image.sh [TAG]
#   (default petstore:latest, and petstore:<the release's version>, libs/contract/package.json's)
# Builds the Containerfile with podman, as `docker build .` would, with what these machines need around it:
# - the base images (made locally where no registry answers, base-images.sh), each taken by digest: the one given in
#   NODE_IMAGE / RUNTIME_IMAGE (pulled where a registry answers), else the digest of the image podman holds under the
#   Containerfile's name; the image is labelled with its runtime base's name and digest (OCI's base.name, base.digest);
# - this machine's CA bundle for npm during the build only, as build secrets (the npm registry is reached through a
#   TLS-intercepting proxy here); a secret mount leaves nothing in the image.
set -euo pipefail
root_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root_dir"
# shellcheck source=tools/containers/podman-env.sh
source tools/containers/podman-env.sh
# shellcheck source=tools/containers/base-image-names.sh
source tools/containers/base-image-names.sh
ensure_podman
# The Containerfile's bases, pulled or made here, unless both are given.
if [ -z "${NODE_IMAGE:-}" ] || [ -z "${RUNTIME_IMAGE:-}" ]; then tools/containers/base-images.sh; fi

# NAME@sha256:… of a base: as given when it names a digest, else the digest of the image podman holds under NAME.
by_digest() {
  local image=$1
  case "$image" in
    *@sha256:*) podman image exists "$image" || podman pull -q "$image" >/dev/null ;;
    *) image="$image@$(podman image inspect --format '{{.Digest}}' "$image")" ;;
  esac
  echo "$image"
}
node_image=$(by_digest "${NODE_IMAGE:-$NODE_IMAGE_NAME}")
runtime_image=$(by_digest "${RUNTIME_IMAGE:-$RUNTIME_IMAGE_NAME}")
echo "bases: $node_image, $runtime_image" >&2

tag=${1:-petstore:latest}
version=$(node -p 'require("./libs/contract/package.json").version')
revision=$(git rev-parse HEAD 2>/dev/null || echo unknown)
source_url=$(git remote get-url origin 2>/dev/null || echo "")
secrets=()
ca=/etc/ssl/certs/ca-certificates.crt
if [ -f "$ca" ]; then
  npmrc=$(mktemp)
  trap 'rm -f "$npmrc"' EXIT
  echo 'cafile=/run/host-ca.crt' >"$npmrc"
  secrets=(--secret "id=ca,src=$ca" --secret "id=npmrc,src=$npmrc")
fi
# --format docker keeps HEALTHCHECK, which the OCI format drops.
podman build --pull=never --format docker "${secrets[@]}" \
  --build-arg "NODE_IMAGE=$node_image" --build-arg "RUNTIME_IMAGE=$runtime_image" \
  --label "org.opencontainers.image.base.name=${runtime_image%@*}" --label "org.opencontainers.image.base.digest=${runtime_image#*@}" \
  --build-arg "VERSION=$version" --build-arg "REVISION=$revision" --build-arg "SOURCE=$source_url" \
  -t "$tag" -t "petstore:$version" -f Containerfile .
