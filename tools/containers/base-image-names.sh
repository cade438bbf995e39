# Sourced by the container scripts: the base images' names as the Containerfile's ARG lines give them (one source),
# NODE_IMAGE_NAME and RUNTIME_IMAGE_NAME, e.g. docker.io/library/node:26-trixie-slim and debian:trixie-slim.
_containerfile="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/Containerfile"
NODE_IMAGE_NAME=$(sed -n 's/^ARG NODE_IMAGE=//p' "$_containerfile")
RUNTIME_IMAGE_NAME=$(sed -n 's/^ARG RUNTIME_IMAGE=//p' "$_containerfile")
unset _containerfile
if [ -z "$NODE_IMAGE_NAME" ] || [ -z "$RUNTIME_IMAGE_NAME" ]; then
  echo "the Containerfile must give ARG NODE_IMAGE= and ARG RUNTIME_IMAGE= defaults" >&2
  return 1
fi
