# Sourced by the container scripts: podman and its helpers installed from Debian's packages when missing (as root, as
# in CI), and this repository's containers.conf unless the caller chose one.
containers_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export CONTAINERS_CONF=${CONTAINERS_CONF:-$containers_dir/containers.conf}

ensure_podman() {
  local missing=()
  # netavark, podman's network, sets up container networks with iptables.
  for tool in podman runc debootstrap iptables; do command -v "$tool" >/dev/null || missing+=("$tool"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" != 0 ]; then
    echo "missing: ${missing[*]}; install podman runc netavark aardvark-dns catatonit iptables debootstrap" >&2
    return 1
  fi
  echo "installing podman and its helpers from Debian's packages" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq podman runc netavark aardvark-dns catatonit iptables debootstrap >/dev/null
}
