#!/usr/bin/env bash
# Start a local PostgreSQL for the storage test and print its URL; print nothing if it cannot.
set -u
apt-get install -y -qq postgresql >/dev/null 2>&1 || exit 0
service postgresql start >/dev/null 2>&1 || exit 0
su postgres -c "psql -qtc \"SELECT 1 FROM pg_roles WHERE rolname='tminus'\"" | grep -q 1 ||
  su postgres -c "psql -qc \"CREATE ROLE tminus LOGIN SUPERUSER PASSWORD 'tminus'\"" >/dev/null || exit 0
su postgres -c "psql -qtc \"SELECT 1 FROM pg_database WHERE datname='tminus_test'\"" | grep -q 1 ||
  su postgres -c "createdb -O tminus tminus_test" >/dev/null || exit 0
echo "postgresql://tminus:tminus@127.0.0.1:5432/tminus_test"
