#!/usr/bin/env bash
# Usage: tools/containers/base-images.sh
# Makes sure podman has the base images the Containerfile names, docker.io/library/debian:bookworm-slim and
# docker.io/library/node:24-bookworm-slim: pulled where a registry answers, else made here as stand-ins under the same
# names, so that the unchanged Containerfile builds with --pull=never. A stand-in is a Debian bookworm root from
# Debian's mirror (debootstrap), slimmed as the official slim image is; the Node.js one adds the official Node.js
# build (from the npm registry, tools/install-node.sh), npm, the `node` user (uid 1000) and docker-entrypoint.sh, laid
# out as in the official image. Nothing is made again if the images exist (podman rmi them to remake).
set -euo pipefail
root_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=tools/containers/podman-env.sh
source "$root_dir/tools/containers/podman-env.sh"
ensure_podman

NODE_VERSION=${NODE_VERSION:-$(tr -d " v\r\n" < "$root_dir/.nvmrc")}
DEBIAN_IMAGE=docker.io/library/debian:bookworm-slim
NODE_IMAGE=docker.io/library/node:24-bookworm-slim

have() { podman image exists "$1"; }
pulled() { timeout 120 podman pull -q "$1" >/dev/null 2>&1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

debian_root() {
  local rootfs=$work/debian
  [ -d "$rootfs" ] && return 0
  echo "making a Debian bookworm root (debootstrap, minbase)" >&2
  debootstrap --variant=minbase bookworm "$rootfs" http://deb.debian.org/debian >"$work/debootstrap.log" 2>&1 ||
    { cat "$work/debootstrap.log" >&2; return 1; }
  # As the official slim image: no documentation, manual pages or translations, now or from later installs.
  cat >"$rootfs/etc/dpkg/dpkg.cfg.d/docker" <<'EOF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-include /usr/share/locale/locale.alias
EOF
  find "$rootfs/usr/share/doc" -mindepth 2 ! -name copyright -delete 2>/dev/null || true
  rm -rf "$rootfs"/usr/share/{man,info}/* "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin \
    "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/log/*.log
  find "$rootfs/usr/share/locale" -mindepth 1 -maxdepth 1 ! -name locale.alias -exec rm -rf {} +
}

if ! have "$DEBIAN_IMAGE" && ! pulled "$DEBIAN_IMAGE"; then
  debian_root
  tar -C "$work/debian" -c . | podman import -q --change 'CMD ["bash"]' - "$DEBIAN_IMAGE" >/dev/null
  echo "made $DEBIAN_IMAGE" >&2
fi

if ! have "$NODE_IMAGE" && ! pulled "$NODE_IMAGE"; then
  debian_root
  node_home=$("$root_dir/tools/install-node.sh" "$NODE_VERSION")
  rootfs=$work/debian
  mkdir -p "$rootfs/usr/local/bin" "$rootfs/usr/local/include" "$rootfs/usr/local/lib/node_modules" "$rootfs/home/node"
  cp "$node_home/bin/node" "$rootfs/usr/local/bin/node"
  cp -r "$node_home/include/node" "$rootfs/usr/local/include/node"
  # npm as the official image has it: the npm that runs here (npm 11), under /usr/local/lib/node_modules.
  npm_package=$(cd "$(dirname "$(readlink -f "$(command -v npm)")")/.." && pwd)
  cp -r "$npm_package" "$rootfs/usr/local/lib/node_modules/npm"
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
  echo 'node:x:1000:1000::/home/node:/bin/bash' >>"$rootfs/etc/passwd"
  echo 'node:x:1000:' >>"$rootfs/etc/group"
  echo 'node:*:20000:0:99999:7:::' >>"$rootfs/etc/shadow"
  chown 1000:1000 "$rootfs/home/node"
  # The official entrypoint: a first argument that is a flag or not a command runs node with it.
  cat >"$rootfs/usr/local/bin/docker-entrypoint.sh" <<'EOF'
#!/bin/sh
set -e
if [ "${1#-}" != "${1}" ] || [ -z "$(command -v "${1}")" ] || { [ -f "${1}" ] && ! [ -x "${1}" ]; }; then
  set -- node "$@"
fi
exec "$@"
EOF
  chmod 755 "$rootfs/usr/local/bin/docker-entrypoint.sh"
  tar -C "$rootfs" -c . | podman import -q \
    --change "ENV NODE_VERSION=$NODE_VERSION" \
    --change 'ENTRYPOINT ["docker-entrypoint.sh"]' \
    --change 'CMD ["node"]' - "$NODE_IMAGE" >/dev/null
  echo "made $NODE_IMAGE (Node.js $NODE_VERSION)" >&2
fi
podman images --format '{{.Repository}}:{{.Tag}} {{.Size}}' | grep -E 'library/(debian|node)' >&2
