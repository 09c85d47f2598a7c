#!/usr/bin/env bash
# HTTP throughput with wrk over keep-alive connections, in one run:
#   1. Viewbase: point read GET /v1/tables/Bench/items/{pk}/{id} (random ids among ITEMS preloaded items,
#      RocksDB-backed) vs the same server's no-op GET /v1/health. Target: read >= 65% of health.
#   2. HTTP library floor: a no-op endpoint on bare Netty 4.2 vs the JDK's HttpServer.
#   3. (AZURE=1) the same point reads through the Azure Tables dialect, signed with a table SAS and
#      sent with the Azure SDKs' headers: what the dialect costs per request against the native API.
#   4. (WRITES=1) durable upserts PUT /v1/tables/Bench/items/{pk}/{id} of those items: a write's cost
#      over HTTP, log sync (group commit across the connections) included.
#   5. (TLS=1) the point reads of part 1 over https vs http: two listeners of one server process on
#      one database, the https one with a self-signed EC P-256 certificate made here with openssl;
#      wrk keeps its connections, so this is the cost of encrypting, not of handshakes.
#   6. (KEYS=1) the same point reads on a server whose catalog holds API keys, each request with a
#      read key for table Bench (Authorization: Bearer), against a server without keys: what the key
#      check costs per request. Both servers run at once and the two are measured in turn.
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
# server's throughput reflects its own CPU cost), IO_THREADS (1 when pinned, else the CPU count),
# LIBRARIES (1: also measure part 2; 0: the Viewbase pair only), AZURE (0; 1: also measure part 3),
# WRITES (0; 1: also measure part 4), TLS (0; 1: also measure part 5; needs openssl),
# KEYS (0; 1: also measure part 6),
# SERVER_JAVA_OPTS (extra JVM options for the servers, e.g. -Dviewbase.transport=nio).
# Every figure comes with the server's own CPU time per request (utime + stime from /proc over
# the run, divided by the requests answered), which load from elsewhere moves far less than req/s.
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
LIBRARIES="${LIBRARIES:-1}"
AZURE="${AZURE:-0}"
WRITES="${WRITES:-0}"
KEYS="${KEYS:-0}"
TLS="${TLS:-0}"
SERVER_JAVA_OPTS="${SERVER_JAVA_OPTS:-}"

command -v wrk >/dev/null || { echo "wrk is not installed (Debian: apt-get install -y wrk)" >&2; exit 2; }
[[ -f "$jar" ]] || { echo "no $jar: build it with 'mvn -B -q install -DskipTests'" >&2; exit 2; }

server_cpu=() wrk_cpu=() tls_args=()
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
keyed_pid="" # part 6 runs two servers at once: the second one's pid
trap 'stop_server; if [[ -n "$keyed_pid" ]]; then kill "$keyed_pid" 2>/dev/null || true; fi; rm -rf "$work"' EXIT

# start_server KIND: starts HttpBenchServer and sets $port once it listens.
start_server() {
  local kind="$1" port_file="$work/$1.port"
  rm -f "$port_file" # a kind may start twice: never read the last one's port
  # shellcheck disable=SC2086
  "${server_cpu[@]}" java -Xms1g -Xmx1g $SERVER_JAVA_OPTS -cp "$jar" io.viewbase.benchmarks.http.HttpBenchServer "$kind" \
    --items "$ITEMS" --io-threads "$IO_THREADS" --port-file "$port_file" --max-seconds 900 \
    ${tls_args[@]+"${tls_args[@]}"} >"$work/$kind.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 1 600); do
    [[ -f "$port_file" ]] && { port="$(head -n 1 "$port_file")"; AZURE_SAS="$(sed -n 2p "$port_file")"; tls_port="$(sed -n 3p "$port_file")"; return 0; }
    kill -0 "$server_pid" 2>/dev/null || { cat "$work/$kind.log" >&2; echo "$kind server died" >&2; exit 1; }
    sleep 0.5
  done
  echo "$kind server did not start in 300 s" >&2
  exit 1
}

# cpu_ticks: the server process's CPU time so far (user + system), in clock ticks.
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$server_pid/stat"; }
hz="$(getconf CLK_TCK)"

# run_wrk PATH_MODE DURATION: prints "requests/s server-CPU-µs-per-request"; fails if any response
# was not 2xx. The CPU figure is the server's own (utime + stime over the run / requests answered):
# wrk shares the machine, so CPU per request is the figure that does not depend on who else runs.
run_wrk() {
  local out before after
  before="$(cpu_ticks)"
  out="$(BENCH_PATH="$1" AZURE_SAS="${AZURE_SAS:-}" API_KEY="${API_KEY:-}" ITEMS="$ITEMS" "${wrk_cpu[@]}" wrk -t"$WRK_THREADS" -c"$CONNECTIONS" -d"$2" \
    -s "$lua" "${BENCH_URL:-http://127.0.0.1:$port}")"
  after="$(cpu_ticks)"
  echo "$out" >>"$work/wrk.log"
  if grep -q "Non-2xx" <<<"$out"; then
    echo "$out" >&2
    echo "non-2xx responses for $1: the measurement would be meaningless" >&2
    exit 1
  fi
  awk -v ticks="$((after - before))" -v hz="$hz" '
    /requests in/ { requests = $1 }
    /^Requests\/sec:/ { rps = $2 }
    END { printf "%s %.1f\n", rps, ticks * 1e6 / hz / requests }' <<<"$out"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f%%", 100 * a / b }'; }
mean() { tr ' ' '\n' <<<"$*" | awk 'NF { s += $1; n++ } END { printf "%.0f", s / n }'; }
mean1() { tr ' ' '\n' <<<"$*" | awk 'NF { s += $1; n++ } END { printf "%.1f", s / n }'; }

# measure_pair PATH_A PATH_B: warms both up, then alternates them ROUNDS times; sets $a_rps, $b_rps
# (mean requests/s) and $a_cpu, $b_cpu (mean server CPU µs per request). A_URL and B_URL, when set,
# are the servers the two paths are sent to (default: http://127.0.0.1:$port for both).
measure_pair() {
  local a=() b=() ac=() bc=() r
  BENCH_URL="${A_URL:-}" run_wrk "$1" "$WARMUP" >/dev/null
  BENCH_URL="${B_URL:-}" run_wrk "$2" "$WARMUP" >/dev/null
  for _ in $(seq 1 "$ROUNDS"); do
    r=($(BENCH_URL="${A_URL:-}" run_wrk "$1" "$DURATION")); a+=("${r[0]}"); ac+=("${r[1]}")
    r=($(BENCH_URL="${B_URL:-}" run_wrk "$2" "$DURATION")); b+=("${r[0]}"); bc+=("${r[1]}")
  done
  echo "  $1${A_URL:+ at $A_URL}: ${a[*]} req/s, ${ac[*]} µs CPU/req;" \
    "$2${B_URL:+ at $B_URL}: ${b[*]} req/s, ${bc[*]} µs CPU/req" \
    "(load average $(cut -d' ' -f1-3 /proc/loadavg))" >&2
  a_rps="$(mean "${a[@]}")" b_rps="$(mean "${b[@]}")"
  a_cpu="$(mean1 "${ac[@]}")" b_cpu="$(mean1 "${bc[@]}")"
}

# measure_one PATH: warms up, then measures ROUNDS times; sets $a_rps and $a_cpu.
measure_one() {
  local a=() ac=() r
  run_wrk "$1" "$WARMUP" >/dev/null
  for _ in $(seq 1 "$ROUNDS"); do
    r=($(run_wrk "$1" "$DURATION")); a+=("${r[0]}"); ac+=("${r[1]}")
  done
  echo "  $1: ${a[*]} req/s, ${ac[*]} µs CPU/req (load average $(cut -d' ' -f1-3 /proc/loadavg))" >&2
  a_rps="$(mean "${a[@]}")" a_cpu="$(mean1 "${ac[@]}")"
}

echo "wrk -t$WRK_THREADS -c$CONNECTIONS -d$DURATION x $ROUNDS rounds (warm-up $WARMUP each), $ITEMS items," \
  "server io threads $IO_THREADS, pinned: $([[ ${#server_cpu[@]} -gt 0 ]] && echo "server cpu0, wrk cpu1" || echo no)"

start_server viewbase
measure_pair read health
read_rps="$a_rps" health_rps="$b_rps"
stop_server
read_cpu="$a_cpu" health_cpu="$b_cpu"
printf '%-44s %12s req/s %8s µs server CPU/req\n' "viewbase  GET /v1/tables/Bench/items/{pk}/{id}" "$read_rps" \
  "$read_cpu" "viewbase  GET /v1/health" "$health_rps" "$health_cpu"
echo "point read / health = $(ratio "$read_rps" "$health_rps") (target >= 65%);" \
  "by server CPU per request: $(ratio "$health_cpu" "$read_cpu")"

if [[ "$AZURE" == 1 ]]; then
  start_server azure
  measure_one azure
  stop_server
  printf '%-44s %12s req/s %8s µs server CPU/req\n' "viewbase  Azure GET /Bench(PartitionKey,RowKey)" \
    "$a_rps" "$a_cpu"
fi

if [[ "$WRITES" == 1 ]]; then
  start_server viewbase
  measure_one write
  stop_server
  printf '%-44s %12s req/s %8s µs server CPU/req\n' "viewbase  PUT /v1/tables/Bench/items/{pk}/{id}" \
    "$a_rps" "$a_cpu"
fi

if [[ "$KEYS" == 1 ]]; then
  start_server viewbase-keys
  keyed_pid="$server_pid" keyed_port="$port" keyed_key="$AZURE_SAS"
  start_server viewbase
  plain_pid="$server_pid" plain_port="$port"
  on_plain() { server_pid="$plain_pid" port="$plain_port" API_KEY=""; }
  on_keyed() { server_pid="$keyed_pid" port="$keyed_port" API_KEY="$keyed_key"; }
  plain=() plainc=() keyed=() keyedc=()
  on_plain; run_wrk read "$WARMUP" >/dev/null
  on_keyed; run_wrk read "$WARMUP" >/dev/null
  for _ in $(seq 1 "$ROUNDS"); do
    on_plain; r=($(run_wrk read "$DURATION")); plain+=("${r[0]}"); plainc+=("${r[1]}")
    on_keyed; r=($(run_wrk read "$DURATION")); keyed+=("${r[0]}"); keyedc+=("${r[1]}")
  done
  echo "  read without keys: ${plain[*]} req/s, ${plainc[*]} µs CPU/req; with a key: ${keyed[*]} req/s," \
    "${keyedc[*]} µs CPU/req (load average $(cut -d' ' -f1-3 /proc/loadavg))" >&2
  on_keyed; stop_server; keyed_pid=""
  on_plain; stop_server
  printf '%-44s %12s req/s %8s µs server CPU/req\n' \
    "viewbase  point read, no keys" "$(mean "${plain[@]}")" "$(mean1 "${plainc[@]}")" \
    "viewbase  point read, Bearer read key" "$(mean "${keyed[@]}")" "$(mean1 "${keyedc[@]}")"
  echo "with a key / without, by server CPU per request: $(ratio "$(mean1 "${keyedc[@]}")" "$(mean1 "${plainc[@]}")")"
fi

if [[ "$TLS" == 1 ]]; then
  command -v openssl >/dev/null || { echo "TLS=1 needs openssl" >&2; exit 2; }
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj /CN=localhost \
    -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" -keyout "$work/tls.key" -out "$work/tls.crt" 2>/dev/null
  tls_args=(--tls-cert "$work/tls.crt" --tls-key "$work/tls.key")
  start_server viewbase-tls
  tls_args=()
  A_URL="http://127.0.0.1:$port" B_URL="https://127.0.0.1:$tls_port" measure_pair read read
  stop_server
  printf '%-44s %12s req/s %8s µs server CPU/req\n' "viewbase  http  GET /v1/tables/Bench/items/…" \
    "$a_rps" "$a_cpu" "viewbase  https GET /v1/tables/Bench/items/…" "$b_rps" "$b_cpu"
  echo "https / http = $(ratio "$b_rps" "$a_rps") by req/s;" \
    "server CPU per read, https / http: $(ratio "$b_cpu" "$a_cpu")"
fi

[[ "$LIBRARIES" == 1 ]] || exit 0

start_server netty-noop
measure_one health
netty_rps="$a_rps" netty_cpu="$a_cpu"
stop_server
start_server jdk-noop
measure_one health
jdk_rps="$a_rps" jdk_cpu="$a_cpu"
stop_server
printf '%-44s %12s req/s %8s µs server CPU/req\n' "netty 4.2 no-op" "$netty_rps" "$netty_cpu" \
  "jdk HttpServer no-op" "$jdk_rps" "$jdk_cpu"
echo "jdk / netty = $(ratio "$jdk_rps" "$netty_rps")"

