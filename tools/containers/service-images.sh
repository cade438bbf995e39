#!/usr/bin/env bash
# Usage: tools/containers/service-images.sh
# Makes sure podman has the images compose.yaml and the container tests run beside the service: PostgreSQL, Redis and
# HAProxy under their official names, pulled where a registry answers, else built here from Debian's packages on the
# stand-in debian:trixie-slim (stand-ins/*.Containerfile). Nothing is made again while the images exist and are current.
set -euo pipefail
containers_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tools/containers/podman-env.sh
source "$containers_dir/podman-env.sh"
"$containers_dir/base-images.sh"

declare -A images=(
  [postgres]=docker.io/library/postgres:17-trixie
  [redis]=docker.io/library/redis:8-trixie
  [haproxy]=docker.io/library/haproxy:3.0-trixie
)
# A stand-in is labelled with its recipe (its files in stand-ins/): one made from an older recipe is made again; an
# image pulled from a registry has no such label and is kept.
for name in postgres redis haproxy; do
  image=${images[$name]}
  recipe_files=("$containers_dir/stand-ins/$name".*)
  [ -e "$containers_dir/stand-ins/$name-entrypoint.sh" ] && recipe_files+=("$containers_dir/stand-ins/$name-entrypoint.sh")
  recipe=$(cat "${recipe_files[@]}" | sha256sum | cut -c1-16)
  if podman image exists "$image"; then
    made_by=$(podman image inspect --format '{{index .Config.Labels "io.petstore.stand-in"}}' "$image")
    case "$made_by" in
      "" | "<no value>" | "$recipe") continue ;;
      *) echo "$image is a stand-in made from another recipe: making it again" >&2 ;;
    esac
  elif timeout 120 podman pull -q "$image" >/dev/null 2>&1; then
    continue
  fi
  echo "making $image from Debian's packages" >&2
  podman build -q --pull=never --label "io.petstore.stand-in=$recipe" -t "$image" -f "$containers_dir/stand-ins/$name.Containerfile" \
    "$containers_dir/stand-ins" >/dev/null
done
