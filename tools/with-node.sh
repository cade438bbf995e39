#!/usr/bin/env bash
# Usage: tools/with-node.sh COMMAND [ARG...] — runs COMMAND on a Node.js that satisfies package.json's engines.
# This machine's own Node.js when it does: the command runs exactly as typed, nothing is fetched. Otherwise the version
# pinned in .nvmrc, fetched once from the npm registry into a cache (tools/install-node.sh), goes first on PATH for the
# command and all it starts, and native addons build against its headers; one line on stderr says so. Nothing outside
# the cache changes. The npm scripts run through it, so that the README's commands work on any machine npm runs on.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# engines.node is a ">=MAJOR.MINOR" range (package.json); an older or missing node does not satisfy it.
required=$(sed -n 's/.*"node": *">=\([0-9][0-9.]*\)".*/\1/p' "$root/package.json" | head -n 1)
if [ -z "$required" ]; then
  echo "tools/with-node.sh: package.json engines.node must read \">=MAJOR.MINOR\"" >&2
  exit 2
fi
satisfied() {
  local have
  have=$(node --version 2>/dev/null) || return 1
  have=${have#v}
  [ "$(printf '%s\n%s\n' "$required" "$have" | sort -V | head -n 1)" = "$required" ]
}
# PETSTORE_PINNED_NODE says the command runs on the pinned Node.js in place of this machine's (package.json's
# postinstall then builds the native addons again on it); a command it starts is already on the right one.
if satisfied; then
  unset PETSTORE_PINNED_NODE
  exec "$@"
fi
# Read before the install: a PATH that already names the cache would find the pinned one afterwards.
found=$(node --version 2>/dev/null || echo 'not found')

pinned=$(tr -d ' v\r\n' < "$root/.nvmrc")
home=$("$root/tools/install-node.sh" "$pinned")
# Said once per npm command: its pre-script (the build before `npm start`) runs on the same Node.js silently.
case "${npm_lifecycle_event:-}" in
  pre*) ;;
  *) echo "Node.js $found does not satisfy engines (>=$required): running on the pinned Node.js v$pinned (.nvmrc) from $home" >&2 ;;
esac
export PATH="$home/bin:$PATH" npm_config_nodedir="$home" PETSTORE_PINNED_NODE="$home"
exec "$@"
