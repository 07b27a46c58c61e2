#!/usr/bin/env bash
# Makes sure PostgreSQL 15's server binaries (initdb, pg_ctl) are where the store tests look for them
# (test/support/postgres.ts: /usr/lib/postgresql/15/bin, or FOOTPRINT_PG_BIN), installing Debian's
# postgresql-15 when they are missing; then proves a cluster can be made and started as the postgres
# user on 127.0.0.1, so that a machine that cannot run it fails here, with the server's own message.
set -euo pipefail
BIN="${FOOTPRINT_PG_BIN:-/usr/lib/postgresql/15/bin}"
if [[ ! -x "$BIN/initdb" || ! -x "$BIN/pg_ctl" ]]; then
  echo "PostgreSQL 15 not found in $BIN: installing postgresql-15" >&2
  SUDO=""
  if [[ "$(id -u)" != 0 ]]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  # The package's own cluster is not used: the tests make their own on a free port.
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends postgresql-15 >/dev/null
fi
as_postgres=()
if [[ "$(id -u)" == 0 ]]; then as_postgres=(runuser -u postgres --); fi
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
if [[ "$(id -u)" == 0 ]]; then chown postgres: "$dir"; fi
port="$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")"
"${as_postgres[@]}" "$BIN/initdb" -D "$dir/data" -U postgres -A trust --no-sync >/dev/null
"${as_postgres[@]}" "$BIN/pg_ctl" -D "$dir/data" -l "$dir/log" -w -o "-h 127.0.0.1 -p $port -k $dir" start >/dev/null || { cat "$dir/log" >&2; exit 1; }
"${as_postgres[@]}" "$BIN/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
echo "PostgreSQL 15 ($BIN) starts on 127.0.0.1" >&2
