#!/usr/bin/env bash
# Builds Nx projects before a command whose output its user reads or pipes (a key printed once, a secret, a table):
# Nx replays its whole build log even from its cache, so the log is shown only when the build fails.
# Usage: tools/build-quietly.sh api [cli ...]
set -uo pipefail
if ! log=$(nx run-many -t build -p "$@" --output-style=static 2>&1); then
  printf '%s\n' "$log" >&2
  exit 1
fi
