#!/usr/bin/env bash
# Usage: tools/containers/base-images.sh
# Makes sure podman has the base images the Containerfile's ARG lines name (NODE_IMAGE, RUNTIME_IMAGE: Node.js and
# Debian 13 "trixie", slim): pulled where a registry answers, else made here as stand-ins under the same names, so that
# the unchanged Containerfile builds with --pull=never. A stand-in is a Debian trixie root from Debian's mirror
# (debootstrap), slimmed as the official slim image is; the Node.js one adds the official Node.js build of .nvmrc's
# version (from the npm registry, tools/install-node.sh), npm, the `node` user (uid 1000) and docker-entrypoint.sh,
# laid out as in the official image. Nothing is made again while the images exist and are current (below).
set -euo pipefail
root_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=tools/containers/podman-env.sh
source "$root_dir/tools/containers/podman-env.sh"
ensure_podman

NODE_VERSION=${NODE_VERSION:-$(tr -d " v\r\n" < "$root_dir/.nvmrc")}
# shellcheck source=tools/containers/base-image-names.sh
source "$root_dir/tools/containers/base-image-names.sh"
DEBIAN_IMAGE=$RUNTIME_IMAGE_NAME
NODE_IMAGE=$NODE_IMAGE_NAME
DEBIAN_SUITE=trixie
# The stand-in carries .nvmrc's Node.js: its major must be the one the image's name promises.
case "$NODE_IMAGE" in
  */node:"${NODE_VERSION%%.*}"-*) ;;
  *) echo "base-images.sh: $NODE_IMAGE does not name Node.js ${NODE_VERSION%%.*} (.nvmrc: $NODE_VERSION)" >&2; exit 1 ;;
esac
case "$DEBIAN_IMAGE $NODE_IMAGE" in
  *:$DEBIAN_SUITE-slim*:*-$DEBIAN_SUITE-slim) ;;
  *) echo "base-images.sh: the stand-ins are Debian $DEBIAN_SUITE; the Containerfile names $DEBIAN_IMAGE and $NODE_IMAGE" >&2; exit 1 ;;
esac

# A stand-in's recipe: this script's content, and for the Node.js one the version it carries (current_image).
recipe=$(sha256sum "${BASH_SOURCE[0]}" | cut -c1-16)
pulled() { timeout 120 podman pull -q "$1" >/dev/null 2>&1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

debian_root() {
  local rootfs=$work/debian
  [ -d "$rootfs" ] && return 0
  echo "making a Debian $DEBIAN_SUITE root (debootstrap, minbase)" >&2
  debootstrap --variant=minbase "$DEBIAN_SUITE" "$rootfs" http://deb.debian.org/debian >"$work/debootstrap.log" 2>&1 ||
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

if ! current_image "$DEBIAN_IMAGE" "$recipe" && ! pulled "$DEBIAN_IMAGE"; then
  debian_root
  tar -C "$work/debian" -c . | podman import -q --change "LABEL $STAND_IN_LABEL=$recipe" --change 'CMD ["bash"]' - "$DEBIAN_IMAGE" >/dev/null
  echo "made $DEBIAN_IMAGE" >&2
fi

if ! current_image "$NODE_IMAGE" "$recipe-node-$NODE_VERSION" && ! pulled "$NODE_IMAGE"; then
  debian_root
  node_home=$("$root_dir/tools/install-node.sh" "$NODE_VERSION")
  rootfs=$work/debian
  # Node.js 26's binary links libatomic.so.1, which the official image installs beside it (libatomic1).
  chroot "$rootfs" sh -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends libatomic1' \
    >"$work/libatomic1.log" 2>&1 || { cat "$work/libatomic1.log" >&2; echo "could not install libatomic1 in the Node.js stand-in" >&2; exit 1; }
  rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/log/*.log "$rootfs"/var/log/apt/*
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
    --change "LABEL $STAND_IN_LABEL=$recipe-node-$NODE_VERSION" \
    --change 'ENTRYPOINT ["docker-entrypoint.sh"]' \
    --change 'CMD ["node"]' - "$NODE_IMAGE" >/dev/null
  echo "made $NODE_IMAGE (Node.js $NODE_VERSION)" >&2
fi
podman images --format '{{.Repository}}:{{.Tag}} {{.Size}}' | grep -E 'library/(debian|node)' >&2
