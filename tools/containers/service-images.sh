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
# A stand-in's recipe: its files in stand-ins/ (current_image).
for name in postgres redis haproxy; do
  image=${images[$name]}
  recipe_files=("$containers_dir/stand-ins/$name".*)
  [ -e "$containers_dir/stand-ins/$name-entrypoint.sh" ] && recipe_files+=("$containers_dir/stand-ins/$name-entrypoint.sh")
  recipe=$(cat "${recipe_files[@]}" | sha256sum | cut -c1-16)
  current_image "$image" "$recipe" && continue
  timeout 120 podman pull -q "$image" >/dev/null 2>&1 && continue
  echo "making $image from Debian's packages" >&2
  podman build -q --pull=never --label "$STAND_IN_LABEL=$recipe" -t "$image" -f "$containers_dir/stand-ins/$name.Containerfile" \
    "$containers_dir/stand-ins" >/dev/null
done
