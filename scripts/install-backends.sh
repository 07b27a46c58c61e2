#!/usr/bin/env bash
# Installs the metric/alerting backends the stack tests (test/stack/) run for real on a
# machine without Docker: promtool (Debian `prometheus`), Alertmanager (Debian
# `prometheus-alertmanager`) and VictoriaMetrics + vmalert with OTLP ingest (Debian trixie
# `victoria-metrics`, fetched through a PRIVATE apt config and unpacked under
# $FOOTPRINT_BACKENDS_DIR, so /etc/apt and the dpkg database stay untouched).
# Idempotent: re-running only re-checks. Run as root (CI's .ci/run calls it).
# Prints where every binary is, one `name=path` line each, at the end.
set -euo pipefail

PREFIX="${FOOTPRINT_BACKENDS_DIR:-/opt/footprint-backends}"
TRIXIE_MIRROR="${FOOTPRINT_TRIXIE_MIRROR:-http://deb.debian.org/debian}"
export DEBIAN_FRONTEND=noninteractive

log() { printf '[install-backends] %s\n' "$*" >&2; }

if [ "$(id -u)" -ne 0 ]; then
  log "must run as root (apt-get install)"; exit 1
fi

# --- 1. bookworm packages: promtool (+prometheus) and alertmanager --------------------------
missing=()
command -v promtool >/dev/null 2>&1 || missing+=(prometheus)
{ command -v prometheus-alertmanager >/dev/null 2>&1 || [ -x /usr/bin/prometheus-alertmanager ]; } \
  || missing+=(prometheus-alertmanager)
if [ "${#missing[@]}" -gt 0 ]; then
  log "apt-get install ${missing[*]}"
  apt-get update -qq
  # policy-rc.d keeps the packages' postinst from starting system-wide daemons on :9090/:9093.
  had_policy=0; [ -e /usr/sbin/policy-rc.d ] && had_policy=1
  if [ "$had_policy" -eq 0 ]; then printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d; chmod +x /usr/sbin/policy-rc.d; fi
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  if [ "$had_policy" -eq 0 ]; then rm -f /usr/sbin/policy-rc.d; fi
fi

# --- 2. trixie victoria-metrics (OTLP ingest needs >= 1.9x; bookworm ships 1.79 without it) ---
vm_ok() {
  [ -x "$PREFIX/bin/victoria-metrics" ] && [ -x "$PREFIX/bin/vmalert" ] \
    && "$PREFIX/bin/victoria-metrics" -version >/dev/null 2>&1
}
if ! vm_ok; then
  log "fetching victoria-metrics from Debian trixie into $PREFIX (private apt config)"
  APTDIR="$PREFIX/apt"
  mkdir -p "$APTDIR/lists/partial" "$APTDIR/cache/archives/partial" "$APTDIR/sources.list.d" \
           "$APTDIR/preferences.d" "$PREFIX/debs" "$PREFIX/root" "$PREFIX/bin"
  cat >"$APTDIR/sources.list" <<SRC
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $TRIXIE_MIRROR trixie main
SRC
  APT_OPTS=(
    -o "Dir::Etc::sourcelist=$APTDIR/sources.list"
    -o "Dir::Etc::sourceparts=$APTDIR/sources.list.d"
    -o "Dir::Etc::preferencesparts=$APTDIR/preferences.d"
    -o "Dir::State::Lists=$APTDIR/lists"
    -o "Dir::Cache=$APTDIR/cache"
    -o "APT::Get::List-Cleanup=0"
    -o "APT::Sandbox::User=root"
  )
  if [ ! -e /usr/share/keyrings/debian-archive-keyring.gpg ]; then
    apt-get install -y -qq debian-archive-keyring >/dev/null
  fi
  apt-get "${APT_OPTS[@]}" update -qq
  ( cd "$PREFIX/debs" && rm -f victoria-metrics_*.deb && apt-get "${APT_OPTS[@]}" download victoria-metrics )
  deb="$(ls -1 "$PREFIX"/debs/victoria-metrics_*.deb | tail -n1)"
  rm -rf "$PREFIX/root" && mkdir -p "$PREFIX/root"
  dpkg-deb -x "$deb" "$PREFIX/root"
  dpkg-deb -f "$deb" Version >"$PREFIX/VERSION"   # the Debian build prints no -version
  for b in "$PREFIX"/root/usr/bin/*; do ln -sf "$b" "$PREFIX/bin/$(basename "$b")"; done
  vm_ok || { log "victoria-metrics from trixie did not unpack into a runnable binary"; exit 1; }
fi

# --- 3. report -----------------------------------------------------------------------------
am="$(command -v prometheus-alertmanager || echo /usr/bin/prometheus-alertmanager)"
echo "promtool=$(command -v promtool)"
echo "prometheus=$(command -v prometheus || true)"
echo "alertmanager=$am"
echo "victoria-metrics=$PREFIX/bin/victoria-metrics"
echo "vmalert=$PREFIX/bin/vmalert"
log "versions: $(promtool --version 2>&1 | head -n1) | $("$am" --version 2>&1 | head -n1) | victoria-metrics $(cat "$PREFIX/VERSION" 2>/dev/null || echo '?')"
