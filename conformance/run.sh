#!/usr/bin/env bash
# Runs the OpenID Foundation conformance suite (OIDCC OP plans) against Ziggurat on this machine.
#
#   conformance/run.sh all          # everything below, in order
#   conformance/run.sh <step> ...   # steps: src build mongo nginx suite op config basic config-plan dynamic basic-dcr collect stop
#
# Layout (all under $OIDF_DIR, /tmp/oidf by default): src/ the suite's source (OIDF_GIT: a clone of
# https://gitlab.com/openid/conformance-suite, bare or not; cloned when unset), mongo/ the in-memory MongoDB, nginx/ the front,
# venv/ python for scripts/run-test-plan.py, export/ the suite's result zips, *.planid, table-*.md, results-*.json.
# Ziggurat itself (http://localhost:8080/api) is only used, never started/stopped.
set -euo pipefail
W=${OIDF_DIR:-/tmp/oidf}
JAVA25=/usr/lib/jvm/temurin-25-jdk-amd64
OIDF_GIT=${OIDF_GIT:-}
export OIDF_DIR=$W
export CONFORMANCE_SERVER=http://localhost:8443/ CONFORMANCE_SERVER_MTLS=http://localhost:8444/ CONFORMANCE_DEV_MODE=1
export CONFORMANCE_MAX_CONSECUTIVE_FAILURES=1000   # don't let the runner's circuit breaker abort a plan

HERE=$(cd "$(dirname "$0")" && pwd)
# The harness's own files (kept beside this script) laid out under $W.
lay() { mkdir -p $W/mongo/srcj $W/nginx; cp -n $HERE/MemMongo.java $W/mongo/srcj/; cp -n $HERE/pom.xml $W/mongo/;
  [ -f $W/nginx/nginx.conf ] || sed "s#/tmp/oidf#$W#g" $HERE/nginx.conf > $W/nginx/nginx.conf; cp -n $HERE/make_config.py $HERE/collect.py $HERE/details.py $W/; }
lay

src() {   # extract the suite; Maven Central lacks org.multipaz:*:0.99.0 (only 0.90, 0.101.0, 0.102.0): use 0.101.0.
  # -Werror and the ErrorProne plugin are dropped: ErrorProne 2.38 predates the JDK 25 used to compile (no JDK 21 here).
  if [ ! -f $W/src/pom.xml ]; then
    mkdir -p $W/src
    if [ -z "$OIDF_GIT" ]; then
      OIDF_GIT=$W/suite.git
      [ -d $OIDF_GIT ] || git clone --bare --depth 1 https://gitlab.com/openid/conformance-suite.git $OIDF_GIT
    fi
    git -C "$OIDF_GIT" archive HEAD | tar -x -C $W/src
  fi
  sed -i -e 's#<version>0.99.0</version>#<version>0.101.0</version>#' \
         -e '/<arg>-Werror<\/arg>/d' -e '/<arg>-Xplugin:ErrorProne/d' $W/src/pom.xml
}

build() {
  [ -f $W/src/target/fapi-test-suite.jar ] && return 0
  (cd $W/src && JAVA_HOME=$JAVA25 mvn -B -Dmaven.test.skip -Dpmd.skip -Dcheckstyle.skip \
      -Dmaven.gitcommitid.skip=true -Djacoco.skip=true package > $W/build.log 2>&1)
}

mongo() { # de.bwaldvogel:mongo-java-server (memory backend) + MemMongo.java: answers getParameter /
          # setFeatureCompatibilityVersion (the suite calls them at start-up) and drops text indexes (unsupported)
  ss -ltn | grep -q '127.0.0.1\]*:27017 ' && return 0
  cd $W/mongo
  [ -d lib ] || mvn -B -q dependency:copy-dependencies -DoutputDirectory=lib
  mkdir -p classes && javac -d classes -cp "lib/*" srcj/MemMongo.java
  nohup java -Xmx1g -cp "classes:lib/*" MemMongo 27017 > $W/mongo.log 2>&1 & echo $! > $W/mongo.pid
  sleep 5
}

nginx_front() { # plain-http front on :8443 that sets X-Forwarded-Proto: https (the suite rejects plain http:
                # security/RejectPlainHttpTrafficFilter) and proxies to the suite on 127.0.0.1:9443
  [ -f $W/nginx/nginx.pid ] && kill -0 "$(cat $W/nginx/nginx.pid)" 2>/dev/null && return 0
  mkdir -p $W/nginx/logs $W/nginx/tmp
  nginx -c $W/nginx/nginx.conf -p $W/nginx/
}

suite() {
  curl -sf -o /dev/null "http://localhost:8443/api/plan?length=1" && return 0
  cd $W/src   # the dev profile serves static files from ./src/main/resources/static
  nohup $JAVA25/bin/java -Xmx3g -jar target/fapi-test-suite.jar --spring.profiles.active=dev \
    --server.address=127.0.0.1 --server.port=9443 \
    --fintechlabs.base_url=http://localhost:8443 --fintechlabs.base_mtls_url=http://localhost:8444 \
    --fintechlabs.devmode=true --fintechlabs.startredir=false \
    --spring.mongodb.uri=mongodb://127.0.0.1:27017/test_suite > $W/suite.log 2>&1 & echo $! > $W/suite.pid
  for i in $(seq 1 60); do sleep 5; curl -sf -o /dev/null "http://localhost:8443/api/plan?length=1" && return 0; done
  echo "suite did not start, see $W/suite.log" >&2; return 1
}

op() {    # a person to sign in as, and two static confidential clients (registered by the admin hypatia)
  [ -f $W/client1.json ] && [ -f $W/client2.json ] && return 0
  curl -s -X POST http://localhost:8080/api/people -H 'Content-Type: application/json' -H 'Accept: application/json' \
    -d '{"username":"oidftester","password":"Conformance-Suite-2026!","email":"oidftester@example.org","display_name":"OIDF Tester"}'
  AT=$(curl -s -X POST http://localhost:8080/api/oauth/token -H 'Accept: application/json' \
    -d 'grant_type=password&username=hypatia&password=library+of+alexandria&scope=public+admin' \
    | python3 -c 'import sys,json;print(json.load(sys.stdin)["access_token"])')
  for n in 1 2; do
    curl -s -X POST http://localhost:8080/api/applications -H "Authorization: Bearer $AT" \
      -H 'Content-Type: application/json' -H 'Accept: application/json' \
      -d "{\"name\":\"OIDF conformance client $n\",\"redirect_uris\":[\"http://localhost:8443/test/a/ziggurat/callback\"],\"scopes\":\"openid profile email offline_access\",\"confidential\":true}" \
      > $W/client$n.json
  done
}

config() {  # config-static.json (alias ziggurat), config-dynamic.json (fresh initial access token), and copies with other aliases
  python3 $W/make_config.py
  python3 - <<'EOF'
import json
for src, dst, alias in [("config-static.json", "config-config.json", "zigcfg"),
                        ("config-dynamic.json", "config-basic-dcr.json", "zigdcr")]:
    import os; w = os.environ["OIDF_DIR"] + "/"
    c = json.load(open(w + src)); c["alias"] = alias
    json.dump(c, open(w + dst, "w"), indent=2)
EOF
}

venv() {  # Debian's python3-httpx and python3-pyparsing when installed (no index needed), else from PyPI
  [ -x $W/venv/bin/python ] && return 0
  if /usr/bin/python3 -c 'import httpx, pyparsing' 2>/dev/null; then /usr/bin/python3 -m venv --system-site-packages $W/venv
  else python3 -m venv $W/venv && $W/venv/bin/pip install -q httpx pyparsing; fi
}

plan() {  # plan() <name> <plan-spec> <config>
  venv; mkdir -p $W/export/$1
  (cd $W/src/scripts && timeout 3000 $W/venv/bin/python run-test-plan.py --verbose --export-dir $W/export/$1 "$2" "$3" > $W/$1.log 2>&1) || true
  grep -o "Created test plan, new id: [A-Za-z0-9]*" $W/$1.log | awk '{print $NF}' > $W/$1.planid
}

collect() {
  for p in basic-static config dynamic basic-dcr; do
    [ -s $W/$p.planid ] || continue
    OUT=$W/results-$p.json python3 $W/collect.py $(cat $W/$p.planid) > $W/table-$p.md
    echo "== $p: $W/table-$p.md"; grep -v '^|   |' $W/table-$p.md | awk -F'|' '{print $4}' | sort | uniq -c
  done
}

stop() {  # only what this script started
  for f in $W/suite.pid $W/mongo.pid; do [ -f $f ] && kill "$(cat $f)" 2>/dev/null || true; done
  [ -f $W/nginx/nginx.pid ] && kill "$(cat $W/nginx/nginx.pid)" 2>/dev/null || true
}

step() {
  case "$1" in
    src) src ;; build) build ;; mongo) mongo ;; nginx) nginx_front ;; suite) suite ;; op) op ;; config) config ;;
    basic) plan basic-static "oidcc-basic-certification-test-plan[server_metadata=discovery][client_registration=static_client]" $W/config-static.json ;;
    config-plan) plan config "oidcc-config-certification-test-plan" $W/config-config.json ;;
    dynamic) plan dynamic "oidcc-dynamic-certification-test-plan[response_type=code]" $W/config-dynamic.json ;;
    basic-dcr) plan basic-dcr "oidcc-basic-certification-test-plan[server_metadata=discovery][client_registration=dynamic_client]" $W/config-basic-dcr.json ;;
    collect) collect ;; stop) stop ;;
    all) for s in src build mongo nginx suite op config basic config-plan dynamic basic-dcr collect; do step $s; done ;;
    *) echo "unknown step $1" >&2; exit 2 ;;
  esac
}
[ $# -gt 0 ] || set -- all
for s in "$@"; do step "$s"; done
