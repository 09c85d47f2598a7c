#!/usr/bin/env bash
# HTTP throughput with wrk over keep-alive connections, in one run:
#   1. Viewbase: point read GET /v1/tables/Bench/items/{pk}/{id} (random ids among ITEMS preloaded items,
#      RocksDB-backed) vs the same server's no-op GET /v1/health. Target: read >= 65% of health.
#   2. HTTP library floor: a no-op endpoint on bare Netty 4.2 vs the JDK's HttpServer.
# Every pair runs with the same connections, threads and duration; the script prints each
# throughput and the ratios. Each server is a separate JVM (HttpBenchServer) on a free loopback
# port, stopped by this script (and by itself after --max-seconds if the script dies).
#
# Needs: wrk (Debian: apt-get install -y wrk) and the built jar
#   (mvn -B -q install -DskipTests  ->  viewbase-benchmarks/target/benchmarks.jar).
# Each figure is the mean of ROUNDS measurements, the two paths of a pair alternating, so that
# load from elsewhere on a shared machine falls on both alike.
# Settings (environment): DURATION (10s), WARMUP (5s), ROUNDS (2), CONNECTIONS (32), WRK_THREADS (1),
# ITEMS (100000), PIN (1: server on CPU 0, wrk on CPU 1 when taskset and 2+ CPUs exist, so the
# server's throughput reflects its own CPU cost), IO_THREADS (1 when pinned, else the CPU count).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
jar="${JAR:-$here/target/benchmarks.jar}"
lua="$here/http-bench.lua"
DURATION="${DURATION:-10s}"
WARMUP="${WARMUP:-5s}"
ROUNDS="${ROUNDS:-2}"
CONNECTIONS="${CONNECTIONS:-32}"
WRK_THREADS="${WRK_THREADS:-1}"
ITEMS="${ITEMS:-100000}"
PIN="${PIN:-1}"

command -v wrk >/dev/null || { echo "wrk is not installed (Debian: apt-get install -y wrk)" >&2; exit 2; }
[[ -f "$jar" ]] || { echo "no $jar: build it with 'mvn -B -q install -DskipTests'" >&2; exit 2; }

server_cpu=() wrk_cpu=()
if [[ "$PIN" == 1 ]] && command -v taskset >/dev/null && (( $(nproc) >= 2 )); then
  server_cpu=(taskset -c 0) wrk_cpu=(taskset -c 1)
  IO_THREADS="${IO_THREADS:-1}"
else
  IO_THREADS="${IO_THREADS:-$(nproc)}"
fi

work="$(mktemp -d)"
server_pid=""
stop_server() {
  if [[ -n "$server_pid" ]] && kill -0 "$server_pid" 2>/dev/null; then
    kill "$server_pid"
    wait "$server_pid" 2>/dev/null || true
  fi
  server_pid=""
}
trap 'stop_server; rm -rf "$work"' EXIT

# start_server KIND: starts HttpBenchServer and sets $port once it listens.
start_server() {
  local kind="$1" port_file="$work/$1.port"
  "${server_cpu[@]}" java -Xms1g -Xmx1g -cp "$jar" io.viewbase.benchmarks.http.HttpBenchServer "$kind" \
    --items "$ITEMS" --io-threads "$IO_THREADS" --port-file "$port_file" --max-seconds 900 \
    >"$work/$kind.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 1 600); do
    [[ -f "$port_file" ]] && { port="$(cat "$port_file")"; return 0; }
    kill -0 "$server_pid" 2>/dev/null || { cat "$work/$kind.log" >&2; echo "$kind server died" >&2; exit 1; }
    sleep 0.5
  done
  echo "$kind server did not start in 300 s" >&2
  exit 1
}

# run_wrk PATH_MODE DURATION: prints requests/s; fails if any response was not 2xx.
run_wrk() {
  local out
  out="$(BENCH_PATH="$1" ITEMS="$ITEMS" "${wrk_cpu[@]}" wrk -t"$WRK_THREADS" -c"$CONNECTIONS" -d"$2" \
    -s "$lua" "http://127.0.0.1:$port")"
  echo "$out" >>"$work/wrk.log"
  if grep -q "Non-2xx" <<<"$out"; then
    echo "$out" >&2
    echo "non-2xx responses for $1: the measurement would be meaningless" >&2
    exit 1
  fi
  awk '/^Requests\/sec:/ {print $2}' <<<"$out"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f%%", 100 * a / b }'; }
mean() { tr ' ' '\n' <<<"$*" | awk 'NF { s += $1; n++ } END { printf "%.0f", s / n }'; }

# measure_pair PATH_A PATH_B: warms both up, then alternates them ROUNDS times; sets $a_rps, $b_rps.
measure_pair() {
  local a=() b=()
  run_wrk "$1" "$WARMUP" >/dev/null
  run_wrk "$2" "$WARMUP" >/dev/null
  for _ in $(seq 1 "$ROUNDS"); do
    a+=("$(run_wrk "$1" "$DURATION")")
    b+=("$(run_wrk "$2" "$DURATION")")
  done
  echo "  $1: ${a[*]} req/s; $2: ${b[*]} req/s" >&2
  a_rps="$(mean "${a[@]}")" b_rps="$(mean "${b[@]}")"
}

# measure_one PATH: warms up, then measures ROUNDS times; sets $a_rps.
measure_one() {
  local a=()
  run_wrk "$1" "$WARMUP" >/dev/null
  for _ in $(seq 1 "$ROUNDS"); do
    a+=("$(run_wrk "$1" "$DURATION")")
  done
  echo "  $1: ${a[*]} req/s" >&2
  a_rps="$(mean "${a[@]}")"
}

echo "wrk -t$WRK_THREADS -c$CONNECTIONS -d$DURATION x $ROUNDS rounds (warm-up $WARMUP each), $ITEMS items," \
  "server io threads $IO_THREADS, pinned: $([[ ${#server_cpu[@]} -gt 0 ]] && echo "server cpu0, wrk cpu1" || echo no)"

start_server viewbase
measure_pair read health
read_rps="$a_rps" health_rps="$b_rps"
stop_server
printf '%-44s %12s req/s\n' "viewbase  GET /v1/tables/Bench/items/{pk}/{id}" "$read_rps" "viewbase  GET /v1/health" "$health_rps"
echo "point read / health = $(ratio "$read_rps" "$health_rps") (target >= 65%)"

start_server netty-noop
measure_one health
netty_rps="$a_rps"
stop_server
start_server jdk-noop
measure_one health
jdk_rps="$a_rps"
stop_server
printf '%-44s %12s req/s\n' "netty 4.2 no-op" "$netty_rps" "jdk HttpServer no-op" "$jdk_rps"
echo "jdk / netty = $(ratio "$jdk_rps" "$netty_rps")"
