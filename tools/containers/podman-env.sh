# Sourced by the container scripts: podman and its helpers installed from Debian's packages when missing (as root, as
# in CI), and this repository's containers.conf unless the caller chose one.
containers_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export CONTAINERS_CONF=${CONTAINERS_CONF:-$containers_dir/containers.conf}

# Stand-ins made here carry this label with their recipe (what made them: a hash of their sources, and what they hold).
STAND_IN_LABEL=io.petstore.stand-in

# Whether IMAGE is present and current: pulled from a registry (no stand-in label), or a stand-in made by RECIPE. A
# stand-in made by another recipe (an older script, another .nvmrc) is removed, so that the caller makes it again.
current_image() {
  local image=$1 recipe=$2 made_by
  podman image exists "$image" || return 1
  made_by=$(podman image inspect --format "{{index .Config.Labels \"$STAND_IN_LABEL\"}}" "$image")
  case "$made_by" in
    "" | "<no value>" | "$recipe") return 0 ;;
  esac
  echo "$image is a stand-in made by another recipe ($made_by, now $recipe): making it again" >&2
  podman rmi -f "$image" >/dev/null
  return 1
}

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
