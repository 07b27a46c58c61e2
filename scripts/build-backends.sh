#!/usr/bin/env bash
# Builds the observability stack that test/stack/ runs for real, from pinned sources through the Go
# module proxy (no Docker, no prebuilt downloads): the OpenTelemetry Collector distribution of
# deploy/otel-collector/distribution/, Jaeger v2, Prometheus 3 + promtool, and Alertmanager.
# docker-compose.yml pins the images of these same releases; change both together.
#
# Cached by version: each tool lands in $FOOTPRINT_BACKENDS_DIR/<name>-<version>/bin (default
# /opt/footprint-backends), and a finished build is never redone; the collector's folder name also
# carries a hash of its distribution sources, so editing its component list rebuilds it.
# $FOOTPRINT_BACKENDS_DIR/bin/ links to the pinned builds (test/support/backends.ts looks there).
# Prints one `name=path` line per binary on stdout; progress and build times go to stderr.
# Needs Go (the version deploy/otel-collector/distribution/go.mod names, or newer) and GOPROXY access.
set -euo pipefail

readonly JAEGER_VERSION=v1.76.0        # the Go module version of Jaeger v2.13.0 (its CHANGELOG: "v1.76.0 / v2.13.0")
readonly PROMETHEUS_VERSION=v0.316.0   # the Go module version of Prometheus v3.16.0
readonly ALERTMANAGER_VERSION=v0.35.0
readonly COLLECTOR_VERSION=0.161.0     # must equal the release pinned in the distribution's go.mod

REPO="$(cd "$(dirname "$0")/.." && pwd)"
PREFIX="${FOOTPRINT_BACKENDS_DIR:-/opt/footprint-backends}"
DISTRIBUTION="$REPO/deploy/otel-collector/distribution"

log() { printf '[build-backends] %s\n' "$*" >&2; }

command -v go >/dev/null 2>&1 || { log "go not found on PATH: install Go to build the backends"; exit 1; }
mkdir -p "$PREFIX/bin"

# timed <label> <command...>: runs a build at low priority and logs its wall time.
timed() {
  local label="$1" start
  shift
  start="$(date +%s)"
  log "building $label"
  nice -n 10 "$@"
  log "built $label in $(($(date +%s) - start))s"
}

# go_tool <folder name> <module@version package path...>: `go install` into <folder>/bin unless done.
go_tool() {
  local folder="$PREFIX/$1" pkg
  shift
  if [ ! -e "$folder/.complete" ]; then
    rm -rf "$folder" && mkdir -p "$folder/bin"
    for pkg in "$@"; do timed "$pkg" env GOBIN="$folder/bin" GOFLAGS=-mod=mod go install "$pkg"; done
    touch "$folder/.complete"
  fi
}

# module_build <folder name> <module> <version> <prepare command> <package dir...>: builds inside a
# copy of the module's own source from the proxy, for modules `go install m@v` refuses (replace
# directives in their go.mod) or cannot build (web UI assets that are built by npm and not in the
# module zip). <prepare command> runs in the copy first.
module_build() {
  local folder="$PREFIX/$1" module="$2" version="$3" prepare="$4" source pkg
  shift 4
  [ -e "$folder/.complete" ] && return
  rm -rf "$folder" && mkdir -p "$folder/bin"
  source="$(GOFLAGS=-mod=mod go mod download -json "$module@$version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
  [ -d "$source" ] || { log "go mod download $module@$version gave no source folder"; exit 1; }
  cp -r "$source" "$folder/src" && chmod -R u+w "$folder/src"
  (
    cd "$folder/src"
    "$prepare"
    for pkg in "$@"; do timed "$module/$pkg@$version" env GOFLAGS=-mod=mod go build -o "$folder/bin/" "./$pkg"; done
  )
  rm -rf "$folder/src"
  touch "$folder/.complete"
}

# Alertmanager embeds its web UI from ui/app/dist, which npm builds and the module zip lacks: an
# empty UI is embedded instead (the API, which the stack and the tests use, is whole).
alertmanager_without_ui() { mkdir -p ui/app/dist/elm ui/app/dist/mantine && echo 'UI not built' >ui/app/dist/elm/index.html && cp ui/app/dist/elm/index.html ui/app/dist/mantine/; }
# Jaeger embeds its UI from cmd/query/app/ui/actual (also built by npm); with none there it serves
# its own placeholder page and logs that at start. Its query API is whole.
jaeger_without_ui() { echo 'no UI assets: the query API only' >cmd/query/app/ui/actual/NO_UI; }

go_tool "prometheus-$PROMETHEUS_VERSION" \
  "github.com/prometheus/prometheus/cmd/prometheus@$PROMETHEUS_VERSION" \
  "github.com/prometheus/prometheus/cmd/promtool@$PROMETHEUS_VERSION"
module_build "alertmanager-$ALERTMANAGER_VERSION" github.com/prometheus/alertmanager "$ALERTMANAGER_VERSION" alertmanager_without_ui \
  cmd/alertmanager cmd/amtool
module_build "jaeger-$JAEGER_VERSION" github.com/jaegertracing/jaeger "$JAEGER_VERSION" jaeger_without_ui cmd/jaeger

# The collector is built from the repository's own distribution module (go.mod + go.sum pin it).
sources_hash="$(cat "$DISTRIBUTION"/go.mod "$DISTRIBUTION"/go.sum "$DISTRIBUTION"/*.go | sha256sum | cut -c1-12)"
collector_folder="$PREFIX/otelcol-footprint-$COLLECTOR_VERSION-$sources_hash"
if [ ! -e "$collector_folder/.complete" ]; then
  rm -rf "$collector_folder" && mkdir -p "$collector_folder/bin"
  ( cd "$DISTRIBUTION" && timed "otelcol-footprint $COLLECTOR_VERSION" \
      go build -trimpath -mod=readonly -o "$collector_folder/bin/otelcol-footprint" . )
  touch "$collector_folder/.complete"
fi

link() { ln -sfn "$1" "$PREFIX/bin/$(basename "$1")"; echo "$(basename "$1")=$1"; }
link "$PREFIX/prometheus-$PROMETHEUS_VERSION/bin/prometheus"
link "$PREFIX/prometheus-$PROMETHEUS_VERSION/bin/promtool"
link "$PREFIX/alertmanager-$ALERTMANAGER_VERSION/bin/alertmanager"
link "$PREFIX/alertmanager-$ALERTMANAGER_VERSION/bin/amtool"
link "$PREFIX/jaeger-$JAEGER_VERSION/bin/jaeger"
link "$collector_folder/bin/otelcol-footprint"
