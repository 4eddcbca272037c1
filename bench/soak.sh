#!/usr/bin/env bash
# Soak: the running stack (./ziggurat up) under a steady mix at half its measured capacity for
# ten minutes. Passes when every answer was a success and no service's heap grew past warm-up.
#
#   bench/soak.sh                       # 10 minutes; ZIGGURAT_SOAK_DURATION=2m for a short one
#
# The mix, each through the gateway: GET /user with a token (introspection cache, platform token,
# directory), a public vocabulary list (vocab, namespace rights), and appending data events
# (one commit each). Capacity is measured first with all three at full speed together; the soak
# then runs each at half of its share. Needs hey and gnuplot (apt-get install hey gnuplot-nox).
# Writes bench/results/soak-<time>.md and a chart beside it.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${ZIGGURAT_SOAK_DURATION:-10m}
API=${ZIGGURAT_PUBLIC_BASE_URL:-http://localhost:8080/api}
for tool in hey gnuplot curl; do command -v $tool >/dev/null || { echo "soak needs $tool (apt-get install hey gnuplot-nox curl)" >&2; exit 1; }; done

./ziggurat demo >/dev/null
TOKEN=$(curl -s "$API/oauth/token" -H 'Accept: application/json' -d grant_type=password -d username=hypatia \
  --data-urlencode 'password=library of alexandria' -d 'scope=user write' | sed 's/.*"access_token":"\([^"]*\)".*/\1/')
[ -n "$TOKEN" ] || { echo "no token" >&2; exit 1; }
stamp=$(date -u +%Y%m%dT%H%M%SZ)
work=$(mktemp -d)
out=bench/results/soak-$stamp

declare -A URL METHOD
URL[user]="$API/user"; METHOD[user]=GET
URL[concepts]="$API/alexandria-library/vocab/schemes/ancient-places/concepts"; METHOD[concepts]=GET
URL[events]="$API/hypatia/repositories/soak/data/events"; METHOD[events]=POST
NAMES=(user concepts events)

run_hey() { # name duration concurrency [rate-per-worker] > report
  local name=$1 duration=$2 c=$3 q=${4:-0}
  local args=(-z "$duration" -c "$c" -H "Authorization: Bearer $TOKEN" -m "${METHOD[$name]}")
  [ "$q" != 0 ] && args+=(-q "$q")
  [ "${METHOD[$name]}" = POST ] && args+=(-T application/json -d '{"note":"soak"}')
  hey "${args[@]}" "${URL[$name]}"
}
rps() { sed -n 's/.*Requests\/sec:[[:space:]]*\([0-9.]*\).*/\1/p' "$1"; }
p99() { sed -n 's/.*99% in \([0-9.]*\) secs.*/\1/p' "$1"; }
statuses() { sed -n '/Status code distribution:/,/^$/p' "$1" | grep -o '\[[0-9]*\][[:space:]]*[0-9]* responses' | tr -s ' ' | paste -sd ',' -; }

echo "measuring capacity: the three together at full speed for 20 s"
for n in "${NAMES[@]}"; do run_hey "$n" 20s 8 >"$work/cap-$n.txt" & done; wait
declare -A RATE
for n in "${NAMES[@]}"; do
  r=$(rps "$work/cap-$n.txt"); RATE[$n]=$(awk -v r="$r" 'BEGIN { q = r / 2 / 4; if (q < 1) q = 1; printf "%d", q }')
  echo "  $n: $r req/s together; soak at $((RATE[$n] * 4)) req/s"
done

echo "soaking for $DURATION"
sample() { # seconds-since-start
  local t=$1 m port
  for m in gateway auth-service directory-service vocab-service events-service; do
    case $m in gateway) port=8090;; auth-service) port=8081;; directory-service) port=8082;; vocab-service) port=8083;; events-service) port=8084;; esac
    local old rss
    old=$(curl -s "http://127.0.0.1:$port/q/metrics" | sed -n 's/^jvm_memory_used_bytes{area="heap",id="G1 Old Gen"} \(.*\)/\1/p' | head -1)
    rss=$(ps -o rss= -p "$(cat .run/pids/$m.pid)" 2>/dev/null | tr -d ' ')
    printf '%s %s %s %s\n' "$t" "$m" "${old:-0}" "${rss:-0}" >>"$work/memory.txt"
  done
}
case "$DURATION" in *m) seconds=$(( ${DURATION%m} * 60 ));; *s) seconds=${DURATION%s};; *) seconds=$DURATION;; esac
pids=()
for n in "${NAMES[@]}"; do run_hey "$n" "$DURATION" 4 "${RATE[$n]}" >"$work/soak-$n.txt" & pids+=($!); done
start=$(date +%s)
while [ $(( $(date +%s) - start )) -lt "$seconds" ]; do
  sample $(( $(date +%s) - start )); sleep 15
done
wait "${pids[@]}"
sample $(( $(date +%s) - start ))

# Verdict: only successes; each service's lowest old-generation heap in the last third no higher
# than 1.25 x its lowest in the second third (after warm-up) plus 16 MB of slack.
ok=1
{
  echo "# Soak, $stamp"; echo
  echo "Commit $(git rev-parse --short HEAD), $DURATION, through the gateway of \`./ziggurat up\` on $(nproc) cores."; echo
  echo "| request | target req/s | achieved req/s | p99 (s) | answers |"; echo "|---|---|---|---|---|"
  for n in "${NAMES[@]}"; do
    s=$(statuses "$work/soak-$n.txt")
    echo "| ${METHOD[$n]} ${URL[$n]#$API} | $((RATE[$n] * 4)) | $(rps "$work/soak-$n.txt") | $(p99 "$work/soak-$n.txt") | $s |"
    if echo "$s" | grep -q -E '\[[^2][0-9]*\]' || [ -z "$s" ]; then ok=0; fi
  done
  echo; echo "| service | old gen after warm-up (MB) | old gen at the end (MB) | RSS at the end (MB) |"; echo "|---|---|---|---|"
  last=$(awk '{print $1}' "$work/memory.txt" | sort -n | tail -1)
  for m in gateway auth-service directory-service vocab-service events-service; do
    read -r early late rss < <(awk -v m="$m" -v last="$last" '$2 == m {
        if ($1 >= last / 3 && $1 < 2 * last / 3 && (e == "" || $3 < e)) e = $3
        if ($1 >= 2 * last / 3 && (l == "" || $3 < l)) l = $3
        r = $4 } END { printf "%d %d %d\n", e / 1048576, l / 1048576, r / 1024 }' "$work/memory.txt")
    echo "| $m | $early | $late | $rss |"
    if [ "$late" -gt $(( early * 125 / 100 + 16 )) ]; then ok=0; fi
  done
  echo; echo "Verdict: $([ $ok = 1 ] && echo 'passed: no error, no heap growth past warm-up' || echo 'FAILED')."
  echo; echo "![old generation heap over time]($(basename "$out").png)"
} >"$out.md"
gnuplot <<GP
set terminal png size 900,450
set output "$out.png"
set title "Old generation heap during the soak"
set xlabel "seconds"; set ylabel "MB"; set key outside
plot for [m in "gateway auth-service directory-service vocab-service events-service"] \
  sprintf("< grep ' %s ' $work/memory.txt", m) using 1:(\$3/1048576) with lines title m
GP
cat "$out.md"
rm -rf "$work"
[ $ok = 1 ]
