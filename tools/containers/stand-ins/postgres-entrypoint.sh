#!/bin/sh
# The first start makes the cluster as the official image does: the superuser POSTGRES_USER (default postgres) with
# POSTGRES_PASSWORD, the database POSTGRES_DB (default the user's name), scram-sha-256 from other hosts. Each of the
# three may instead be read from the file NAME_FILE names (a compose or Kubernetes secret), never both.
set -eu
for name in POSTGRES_USER POSTGRES_PASSWORD POSTGRES_DB; do
  eval "value=\${$name:-} file=\${${name}_FILE:-}"
  if [ -n "$file" ]; then
    if [ -n "$value" ]; then
      echo "both $name and ${name}_FILE are set (but are exclusive)" >&2
      exit 1
    fi
    export "$name=$(cat "$file")"
  fi
  unset "${name}_FILE"
done
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  : "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD or POSTGRES_PASSWORD_FILE must be set}"
  user=${POSTGRES_USER:-postgres}
  printf '%s\n' "$POSTGRES_PASSWORD" >/tmp/pwfile
  initdb -D "$PGDATA" -U "$user" --pwfile=/tmp/pwfile --auth-local=trust --auth-host=scram-sha-256 >/dev/null
  rm -f /tmp/pwfile
  echo "listen_addresses = '*'" >>"$PGDATA/postgresql.conf"
  echo 'host all all all scram-sha-256' >>"$PGDATA/pg_hba.conf"
  db=${POSTGRES_DB:-$user}
  if [ "$db" != postgres ]; then
    postgres --single -D "$PGDATA" postgres <<SQL >/dev/null
CREATE DATABASE "$db" OWNER "$user";
SQL
  fi
fi
unset POSTGRES_PASSWORD
exec "$@"
