#!/usr/bin/env bash
# Usage: tools/containers/build-image.sh [TAG]   (default petstore:latest, and petstore:<package.json version>)
# Builds the Containerfile with podman, as `docker build .` would, with what these machines need around it: the base
# images (made locally where no registry answers, base-images.sh), and this machine's CA bundle mounted for npm during
# the build only (the npm registry is reached through a TLS-intercepting proxy here); nothing of it enters the image.
set -euo pipefail
root_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root_dir"
# shellcheck source=tools/containers/podman-env.sh
source tools/containers/podman-env.sh
tools/containers/base-images.sh

tag=${1:-petstore:latest}
version=$(node -p 'require("./package.json").version')
revision=$(git rev-parse HEAD 2>/dev/null || echo unknown)
source_url=$(git remote get-url origin 2>/dev/null || echo "")
mounts=()
ca=/etc/ssl/certs/ca-certificates.crt
if [ -f "$ca" ]; then
  npmrc=$(mktemp)
  trap 'rm -f "$npmrc"' EXIT
  echo 'cafile=/run/host-ca.crt' >"$npmrc"
  mounts=(-v "$ca:/run/host-ca.crt:ro" -v "$npmrc:/usr/local/etc/npmrc:ro")
fi
# --format docker keeps HEALTHCHECK, which the OCI format drops.
podman build --pull=never --format docker "${mounts[@]}" \
  --build-arg "VERSION=$version" --build-arg "REVISION=$revision" --build-arg "SOURCE=$source_url" \
  -t "$tag" -t "petstore:$version" -f Containerfile .
