#!/usr/bin/env bash
# Mutation testing (StrykerJS) of each project that has a stryker.config.json, one after the other (two cores).
# Incremental: a mutant whose code and covering tests are unchanged since the committed incremental file keeps its
# result; `npm run mutation -- --force` runs every mutant. A score under a project's `thresholds.break` fails.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
for config in libs/*/stryker.config.json apps/*/stryker.config.json; do
  [ -e "$config" ] || continue
  echo "== mutation testing: $config"
  npx stryker run "$config" "$@" || status=1
done
exit "$status"
