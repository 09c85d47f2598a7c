#!/usr/bin/env bash
# The same HTTP workload against two builds of the server, side by side in one run: both servers
# (HttpBenchServer viewbase, each from its own benchmarks jar, on RocksDB with ITEMS preloaded
# items) run at once, pinned to CPU 0, and wrk (on CPU 1) loads them in turn, ROUNDS rounds of
# DURATION each after a warm-up of each; an idle server costs the other nothing, so load from
# elsewhere falls on both alike. Prints each round's requests/s and the server's own CPU per
# request (utime + stime from /proc over the round, divided by the requests answered), then the
# means and the ratio B / A.
#
# Usage: viewbase-benchmarks/http-jars.sh A.jar B.jar
#   (each jar: mvn -B -q package -DskipTests -pl viewbase-benchmarks -am at the commit to compare,
#    then copy viewbase-benchmarks/target/benchmarks.jar away)
# Settings (environment): MODE (read: point reads; health: the no-op endpoint), ROUNDS (6),
# DURATION (8s), WARMUP (10s, then 5 s more for each), ITEMS (100000), CONNECTIONS (32).
# Needs wrk (Debian: apt-get install -y wrk) and taskset.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
[[ $# -eq 2 ]] || { echo "usage: $0 A.jar B.jar" >&2; exit 2; }
MODE="${MODE:-read}"
ROUNDS="${ROUNDS:-6}"
DURATION="${DURATION:-8s}"
WARMUP="${WARMUP:-10s}"
ITEMS="${ITEMS:-100000}"
CONNECTIONS="${CONNECTIONS:-32}"
command -v wrk >/dev/null || { echo "wrk is not installed (Debian: apt-get install -y wrk)" >&2; exit 2; }

# shellcheck source=servers.sh
source "$here/servers.sh"
work="$(mktemp -d)"
pids=() ports=()
trap 'stop_pids ${pids[@]+"${pids[@]}"}; rm -rf "$work"' EXIT

for jar in "$1" "$2"; do
  i=${#pids[@]}
  taskset -c 0 java -Xms1g -Xmx1g -cp "$jar" io.viewbase.benchmarks.http.HttpBenchServer viewbase \
    --items "$ITEMS" --io-threads 1 --port-file "$work/port$i" --max-seconds 1800 >"$work/log$i" 2>&1 &
  pids+=($!)
  for _ in $(seq 1 600); do
    [[ -f "$work/port$i" ]] && break
    kill -0 "${pids[$i]}" 2>/dev/null || { cat "$work/log$i" >&2; echo "server $jar died" >&2; exit 1; }
    sleep 0.5
  done
  ports+=("$(head -n 1 "$work/port$i")")
done

cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
hz="$(getconf CLK_TCK)"

# round I DURATION: prints "requests/s server-CPU-µs-per-request" for server I
round() {
  local before after out
  before="$(cpu_ticks "${pids[$1]}")"
  out="$(BENCH_PATH="$MODE" ITEMS="$ITEMS" taskset -c 1 wrk -t1 -c"$CONNECTIONS" -d"$2" \
    -s "$here/http-bench.lua" "http://127.0.0.1:${ports[$1]}")"
  after="$(cpu_ticks "${pids[$1]}")"
  if grep -q "Non-2xx" <<<"$out"; then echo "$out" >&2; echo "non-2xx responses" >&2; exit 1; fi
  awk -v ticks="$((after - before))" -v hz="$hz" '
    /requests in/ { requests = $1 }
    /^Requests\/sec:/ { rps = $2 }
    END { printf "%.0f %.2f\n", rps, ticks * 1e6 / hz / requests }' <<<"$out"
}

round 0 "$WARMUP" >/dev/null
round 1 "$WARMUP" >/dev/null
round 0 5s >/dev/null # a second, shorter warm-up each: the JIT is still at work after the first
round 1 5s >/dev/null
echo "$MODE, $ROUNDS rounds of $DURATION each, A=$1 B=$2 (load average $(cut -d' ' -f1-3 /proc/loadavg))"
for _ in $(seq 1 "$ROUNDS"); do
  echo "A $(round 0 "$DURATION")"
  echo "B $(round 1 "$DURATION")"
done | tee "$work/rounds"
awk '{ n[$1]++; rps[$1] += $2; cpu[$1] += $3 }
  END {
    for (k in n) printf "%s mean: %.0f req/s, %.2f µs server CPU/req\n", k, rps[k] / n[k], cpu[k] / n[k]
    printf "B / A: throughput %.3f, CPU per request %.3f\n", (rps["B"] / n["B"]) / (rps["A"] / n["A"]), (cpu["B"] / n["B"]) / (cpu["A"] / n["A"])
  }' "$work/rounds"
echo "(load average $(cut -d' ' -f1-3 /proc/loadavg))"
