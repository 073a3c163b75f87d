#!/usr/bin/env bash
# The parts the test suite drives besides Python, on Debian or Ubuntu, as root (or with sudo):
#   Chromium (the browser tests), axe-core (their accessibility check, from the npm registry,
#   into ./node_modules) and a local PostgreSQL with the role and database the tests use by
#   default: postgresql://tminus:tminus@127.0.0.1:5432/tminus_test.
# Run it once from the checkout; run it again after a restart to start PostgreSQL.
set -euo pipefail
cd "$(dirname "$0")/.."
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v pg_ctlcluster >/dev/null || missing+=(postgresql)
command -v npm >/dev/null || missing+=(npm)
if [ ${#missing[@]} -gt 0 ]; then
  as_root apt-get update -qq
  as_root apt-get install -y -qq "${missing[@]}"
fi

[ -f node_modules/axe-core/axe.min.js ] ||
  npm install --no-save --no-package-lock --no-audit --no-fund axe-core@4 >/dev/null

as_root service postgresql start >/dev/null
psql_admin() { as_root su postgres -c "psql -qtAc \"$1\""; }
[ "$(psql_admin "SELECT 1 FROM pg_roles WHERE rolname='tminus'")" = 1 ] ||
  psql_admin "CREATE ROLE tminus LOGIN SUPERUSER PASSWORD 'tminus'" >/dev/null
[ "$(psql_admin "SELECT 1 FROM pg_database WHERE datname='tminus_test'")" = 1 ] ||
  as_root su postgres -c "createdb -O tminus tminus_test"
echo "Test parts ready: Chromium, axe-core, PostgreSQL (tminus_test on 127.0.0.1:5432)."
