#!/bin/bash
# First start of the postgres container: the services' roles and schemas, and pg_trgm for
# vocabulary search (the same as deploy/k8s/base/postgres.yaml does for CloudNativePG).
set -euo pipefail
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" <<SQL
CREATE SCHEMA IF NOT EXISTS extensions;
GRANT USAGE ON SCHEMA extensions TO PUBLIC;
CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA extensions;
CREATE ROLE ziggurat_auth LOGIN PASSWORD '${ZIGGURAT_DB_PASSWORD_AUTH}';
CREATE ROLE ziggurat_directory LOGIN PASSWORD '${ZIGGURAT_DB_PASSWORD_DIRECTORY}';
CREATE ROLE ziggurat_vocab LOGIN PASSWORD '${ZIGGURAT_DB_PASSWORD_VOCAB}';
CREATE ROLE ziggurat_events LOGIN PASSWORD '${ZIGGURAT_DB_PASSWORD_EVENTS}';
SQL
for s in auth directory vocab events; do
  psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" <<SQL
GRANT CONNECT, TEMPORARY ON DATABASE ziggurat TO ziggurat_$s;
CREATE SCHEMA IF NOT EXISTS $s AUTHORIZATION ziggurat_$s;
ALTER ROLE ziggurat_$s IN DATABASE ziggurat SET search_path = $s;
SQL
done
