#!/usr/bin/env bash
# Builds the distributed stores that test/distributed/ runs for real, from pinned releases on these
# machines' own package clients and nothing else: an OpenSearch node assembled from the jars Maven
# Central publishes (Maven's `dependency:copy-dependencies` from small generated poms), and Thanos built
# from the Go module proxy. docker-compose.yml's `distributed` profile pins the images of these same
# releases; change both together. docs/scale.md says what runs and why.
#
# Cached by version like scripts/build-backends.sh, in the same folder ($FOOTPRINT_BACKENDS_DIR,
# default /opt/footprint-backends): opensearch-<version>-<hash>/ is an OpenSearch home (lib/, modules/,
# config/, empty bin/ and plugins/), thanos-<version>/bin/thanos the binary; a finished build is never
# redone, and the OpenSearch folder's hash changes with its files and recipe (below).
# $FOOTPRINT_BACKENDS_DIR/bin/ links `thanos` and `opensearch-home`. Prints one `name=path` line per
# part on stdout; progress and build times go to stderr.
# Needs Go (it fetches the toolchain Thanos asks for through the proxy), Maven and a Java 17 runtime.
set -euo pipefail

readonly OPENSEARCH_VERSION=2.19.6   # the newest 2.x on Maven Central that runs on Java 17
readonly THANOS_VERSION=v0.42.5
readonly THANOS_GO=go1.26.11         # Thanos v0.42.5's go.mod asks for go >= 1.26.10
readonly THANOS_TAGS=netgo,slicelabels  # its own release build's tags (.promu.yml): without slicelabels a receiver panics on the first query

REPO="$(cd "$(dirname "$0")/.." && pwd)"
PREFIX="${FOOTPRINT_BACKENDS_DIR:-/opt/footprint-backends}"
OPENSEARCH_FILES="$REPO/deploy/opensearch"

log() { printf '[build-distributed] %s\n' "$*" >&2; }

for tool in go mvn java unzip; do
  command -v "$tool" >/dev/null 2>&1 || { log "$tool not found on PATH: the distributed stores need Go, Maven, Java 17 and unzip"; exit 1; }
done
mkdir -p "$PREFIX/bin"

# timed <label> <command...>: runs a build step (its compilers at low priority) and logs its wall time.
timed() {
  local label="$1" start
  shift
  start="$(date +%s)"
  log "building $label"
  "$@"
  log "built $label in $(($(date +%s) - start))s"
}

# ---------------------------------------------------------------------------------------------
# Thanos: `go install` refuses it (its go.mod has replace directives), so it is built inside a module
# whose go.mod is Thanos's own (same requirements, same replaces) under another name.

thanos_build() {
  local folder="$1" gomod
  gomod="$(GOTOOLCHAIN="$THANOS_GO" GOFLAGS=-mod=mod go mod download -json "github.com/thanos-io/thanos@$THANOS_VERSION" | sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",$/\1/p')"
  [ -f "$gomod" ] || { log "go mod download github.com/thanos-io/thanos@$THANOS_VERSION gave no go.mod"; exit 1; }
  mkdir -p "$folder/build"
  sed 's|^module github.com/thanos-io/thanos$|module footprint.local/thanos-build|' "$gomod" >"$folder/build/go.mod"
  printf 'package build\n\nimport _ "github.com/thanos-io/thanos/cmd/thanos"\n' >"$folder/build/tools.go"
  (
    cd "$folder/build"
    export GOTOOLCHAIN="$THANOS_GO" GOFLAGS=-mod=mod
    go mod edit -require="github.com/thanos-io/thanos@$THANOS_VERSION"
    nice -n 10 go build -trimpath -tags "$THANOS_TAGS" -o "$folder/bin/thanos" github.com/thanos-io/thanos/cmd/thanos
  )
  rm -rf "$folder/build"
}

thanos_folder="$PREFIX/thanos-$THANOS_VERSION"
if [ ! -e "$thanos_folder/.complete" ]; then
  rm -rf "$thanos_folder" && mkdir -p "$thanos_folder/bin"
  timed "thanos $THANOS_VERSION" thanos_build "$thanos_folder"
  touch "$thanos_folder/.complete"
fi

# ---------------------------------------------------------------------------------------------
# OpenSearch: lib/ holds the server jar and what it needs at run time, modules/<name>/ each module
# the node loads (its jar and the jars it adds), with the descriptor and security policy the release
# tarball would carry (deploy/opensearch/modules/), config/ the logging setup; bin/ and plugins/ stay empty.

# The modules a node of this stack needs: transport, scripting, analysis, the mappings Jaeger's index
# templates use, reindex and ingest. Artifact ids under org.opensearch.plugin.
readonly OPENSEARCH_MODULES="transport-netty4-client lang-painless analysis-common mapper-extras-client aggs-matrix-stats-client parent-join-client reindex-client lang-mustache-client ingest-common"

# copy_jars <folder> <groupId:artifactId...>: Maven copies the artifacts and their run-time
# dependencies into <folder>, from a pom generated for the purpose.
copy_jars() {
  local out="$1" work dep group artifact
  shift
  work="$(mktemp -d)"
  {
    printf '<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>'
    printf '<groupId>footprint.local</groupId><artifactId>opensearch-assembly</artifactId><version>1</version><packaging>pom</packaging><dependencies>'
    for dep in "$@"; do
      group="${dep%%:*}" artifact="${dep#*:}"
      printf '<dependency><groupId>%s</groupId><artifactId>%s</artifactId><version>%s</version></dependency>' "$group" "${artifact%%:*}" "${artifact#*:}"
    done
    printf '</dependencies></project>\n'
  } >"$work/pom.xml"
  # Maven's own output only when it fails.
  if ! nice -n 10 mvn -q -B -f "$work/pom.xml" dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$out" >"$work/mvn.log" 2>&1; then
    cat "$work/mvn.log" >&2
    exit 1
  fi
  rm -rf "$work"
}

opensearch_assemble() {
  local home="$1" module name jar class extends log4j_version
  mkdir -p "$home/lib" "$home/modules" "$home/plugins" "$home/bin" "$home/config"
  copy_jars "$home/lib" "org.opensearch:opensearch:$OPENSEARCH_VERSION" "org.opensearch:opensearch-plugin-classloader:$OPENSEARCH_VERSION"
  # log4j-core is optional in the server's pom, and the node logs through it: the same release as log4j-api.
  log4j_version="$(basename "$(ls "$home"/lib/log4j-api-*.jar)" .jar)"
  log4j_version="${log4j_version#log4j-api-}"
  copy_jars "$home/lib" "org.apache.logging.log4j:log4j-core:$log4j_version"
  for module in $OPENSEARCH_MODULES; do
    name="${module%-client}"
    copy_jars "$home/modules/$name" "org.opensearch.plugin:$module:$OPENSEARCH_VERSION"
    for jar in "$home/modules/$name"/*.jar; do
      [ -e "$home/lib/$(basename "$jar")" ] && rm "$jar"
    done
    jar="$home/modules/$name/$module-$OPENSEARCH_VERSION.jar"
    # The plugin class is the jar's one top-level *Plugin class (the release's descriptor names it; Maven has no descriptor).
    class="$(unzip -Z1 "$jar" | grep -E 'Plugin\.class$' | grep -v '\$' || true)"
    [ "$(printf '%s\n' "$class" | grep -c .)" = 1 ] || { log "$jar: expected one *Plugin class, found: ${class:-none}"; exit 1; }
    class="$(printf '%s' "${class%.class}" | tr / .)"
    extends=""
    case "$name" in analysis-common | ingest-common) extends=lang-painless ;; esac
    cat >"$home/modules/$name/plugin-descriptor.properties" <<EOF
description=$name module of OpenSearch $OPENSEARCH_VERSION (assembled from Maven Central)
version=$OPENSEARCH_VERSION
name=$name
classname=$class
java.version=11
opensearch.version=$OPENSEARCH_VERSION
extended.plugins=$extends
has.native.controller=false
EOF
    if [ -f "$OPENSEARCH_FILES/modules/$name.policy" ]; then
      cp "$OPENSEARCH_FILES/modules/$name.policy" "$home/modules/$name/plugin-security.policy"
    fi
  done
  cp "$OPENSEARCH_FILES/log4j2.properties" "$home/config/log4j2.properties"
  # The node's files are read by the unprivileged user it runs as.
  chmod -R a+rX "$home"
}

# The folder's name carries a hash of what goes into it: the files copied in, the module list and the
# assembly steps themselves; changing any of them assembles a new home.
opensearch_hash="$(cat "$OPENSEARCH_FILES"/log4j2.properties "$OPENSEARCH_FILES"/modules/*.policy <(echo "$OPENSEARCH_MODULES"; declare -f copy_jars opensearch_assemble) | sha256sum | cut -c1-12)"
opensearch_home="$PREFIX/opensearch-$OPENSEARCH_VERSION-$opensearch_hash"
if [ ! -e "$opensearch_home/.complete" ]; then
  rm -rf "$opensearch_home"
  timed "opensearch $OPENSEARCH_VERSION" opensearch_assemble "$opensearch_home"
  touch "$opensearch_home/.complete"
fi

link() { ln -sfn "$1" "$PREFIX/bin/$2"; echo "$2=$1"; }
link "$thanos_folder/bin/thanos" thanos
link "$opensearch_home" opensearch-home
