#!/usr/bin/env bash
# The peer for the benchmarks: Keycloak 26.4 (keycloak-quarkus-dist from Maven Central) on the
# machine's second JDK (Temurin 25), production mode, on the same PostgreSQL as Ziggurat (its own
# database, "keycloak"), with a realm "bench", a confidential client "bench-client" (client
# credentials, password and refresh grants, introspection) and a user "bench-user".
#
#   bench/keycloak.sh up      # download once, build, start on :8180, configure; prints the secrets file
#   bench/keycloak.sh down
#
# Settings: KEYCLOAK_VERSION (26.4.5), KEYCLOAK_JAVA_HOME (the Temurin 25 under /usr/lib/jvm),
# ZIGGURAT_DB_URL (admin URL of the PostgreSQL; else the bench's BENCH_DB_URL, the server of the stack
# under test, so that the launcher's private cluster serves Keycloak too; else
# postgresql://postgres@127.0.0.1:5432/postgres).
set -euo pipefail
cd "$(dirname "$0")/.."
VERSION=${KEYCLOAK_VERSION:-26.4.5}
RUN=.run/keycloak
PORT=${KEYCLOAK_PORT:-8180}
JAVA_HOME=${KEYCLOAK_JAVA_HOME:-$(ls -d /usr/lib/jvm/temurin-25* 2>/dev/null | head -1)}
[ -x "$JAVA_HOME/bin/java" ] || { echo "no Java 25 for Keycloak (set KEYCLOAK_JAVA_HOME)" >&2; exit 1; }
export JAVA_HOME PATH="$JAVA_HOME/bin:$PATH"
PG=${ZIGGURAT_DB_URL:-${BENCH_DB_URL:-postgresql://postgres@127.0.0.1:5432/postgres}}
home=$RUN/keycloak-$VERSION

# A pid file whose process is gone (killed, a reboot) is no failure: there is nothing to stop.
down() { if [ -f "$RUN/pid" ]; then kill "$(cat "$RUN/pid")" 2>/dev/null || true; fi; rm -f "$RUN/pid"; }

up() {
  mkdir -p "$RUN"
  if [ ! -d "$home" ]; then
    ./mvnw -q -B dependency:get -N "-Dartifact=org.keycloak:keycloak-quarkus-dist:$VERSION:zip"
    unzip -q -o "$HOME/.m2/repository/org/keycloak/keycloak-quarkus-dist/$VERSION/keycloak-quarkus-dist-$VERSION.zip" -d "$RUN"
  fi
  psql "$PG" -tAc "SELECT 1 FROM pg_database WHERE datname = 'keycloak'" | grep -q 1 || psql "$PG" -qc "CREATE DATABASE keycloak"
  local host port user password
  host=$(printf '%s' "$PG" | sed -E 's#^postgres(ql)?://([^@/]*@)?([^:/]+).*#\3#')
  port=$(printf '%s' "$PG" | sed -nE 's#^postgres(ql)?://([^@/]*@)?[^:/]+:([0-9]+).*#\3#p'); port=${port:-5432}
  user=$(printf '%s' "$PG" | sed -nE 's#^postgres(ql)?://([^:@/]+).*@.*#\2#p'); user=${user:-postgres}
  password=$(printf '%s' "$PG" | sed -nE 's#^postgres(ql)?://[^:@/]+:([^@/]*)@.*#\2#p')
  [ -f "$RUN/admin-password" ] || (umask 077; head -c 18 /dev/urandom | base64 | tr -dc 'A-Za-z0-9' >"$RUN/admin-password")
  local admin; admin=$(cat "$RUN/admin-password")
  # Build once for PostgreSQL, then start optimized in production mode (plain HTTP on loopback:
  # the benchmark measures the server, not TLS).
  "$home/bin/kc.sh" build --db=postgres >"$RUN/build.log" 2>&1
  down
  KC_BOOTSTRAP_ADMIN_USERNAME=admin KC_BOOTSTRAP_ADMIN_PASSWORD=$admin nohup "$home/bin/kc.sh" start --optimized \
    --http-enabled=true --http-host=127.0.0.1 --http-port="$PORT" --hostname-strict=false \
    --db-url="jdbc:postgresql://$host:$port/keycloak" --db-username="$user" ${password:+--db-password="$password"} \
    >"$RUN/keycloak.log" 2>&1 &
  echo $! >"$RUN/pid"
  for _ in $(seq 1 180); do
    curl -sf "http://127.0.0.1:$PORT/realms/master" >/dev/null 2>&1 && break
    kill -0 "$(cat "$RUN/pid")" 2>/dev/null || { tail -30 "$RUN/keycloak.log" >&2; exit 1; }
    sleep 1
  done
  curl -sf "http://127.0.0.1:$PORT/realms/master" >/dev/null || { echo "Keycloak did not start" >&2; tail -30 "$RUN/keycloak.log" >&2; exit 1; }
  local kcadm="$home/bin/kcadm.sh" config="$RUN/kcadm.config"
  "$kcadm" config credentials --config "$config" --server "http://127.0.0.1:$PORT" --realm master --user admin --password "$admin" >/dev/null
  if ! "$kcadm" get realms/bench --config "$config" >/dev/null 2>&1; then
    "$kcadm" create realms --config "$config" -s realm=bench -s enabled=true -s accessTokenLifespan=7200 >/dev/null
    "$kcadm" create clients --config "$config" -r bench -s clientId=bench-client -s enabled=true -s publicClient=false \
      -s serviceAccountsEnabled=true -s directAccessGrantsEnabled=true -s standardFlowEnabled=false \
      -s secret="$(head -c 18 /dev/urandom | base64 | tr -dc 'A-Za-z0-9')" >/dev/null
    "$kcadm" create users --config "$config" -r bench -s username=bench-user -s enabled=true -s email=bench@example.org \
      -s firstName=Bench -s lastName=User -s emailVerified=true >/dev/null
    "$kcadm" set-password --config "$config" -r bench --username bench-user --new-password "bench user password" >/dev/null
  fi
  local id secret
  id=$("$kcadm" get clients --config "$config" -r bench -q clientId=bench-client --fields id --format csv --noquotes)
  secret=$("$kcadm" get "clients/$id/client-secret" --config "$config" -r bench --fields value --format csv --noquotes)
  (umask 077; printf "KEYCLOAK_TOKEN_URL='http://127.0.0.1:%s/realms/bench/protocol/openid-connect/token'\nKEYCLOAK_INTROSPECT_URL='http://127.0.0.1:%s/realms/bench/protocol/openid-connect/token/introspect'\nKEYCLOAK_CLIENT_ID='bench-client'\nKEYCLOAK_CLIENT_SECRET='%s'\nKEYCLOAK_USER='bench-user'\nKEYCLOAK_PASSWORD='bench user password'\n" \
    "$PORT" "$PORT" "$secret" >"$RUN/bench.env")
  echo "Keycloak $VERSION is up on http://127.0.0.1:$PORT (realm bench); settings in $RUN/bench.env"
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  *) sed -n '2,11p' "$0"; exit 2 ;;
esac
