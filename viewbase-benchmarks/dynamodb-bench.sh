#!/usr/bin/env bash
# The AWS SDK workload against Viewbase's DynamoDB dialect and against dynalite, side by side in one
# run (the DynamoDB issue's acceptance). Prints one table: per phase and server, throughput, p50/p99
# latency, the server's CPU time per operation and the driver's, then the ratios and the targets:
#   server CPU per operation >= 20x lower than dynalite's, and >= 10x its throughput, in every phase;
# and the ceiling the driver's own CPU puts on the throughput ratio (driver and servers share the
# machine's cores).
#
# What it does:
#   1. builds Viewbase if the jars are missing (mvn -B -q package -DskipTests);
#   2. installs dynalite 4 from the npm registry into viewbase-benchmarks/target/dynalite (first run only);
#   3. starts dynalite (in memory, its default) and `viewbase serve` (RocksDB in a temporary
#      directory, durable writes, the default: a write is acknowledged after its log sync) on free
#      loopback ports;
#   4. runs DynamoDbSdkBench (the AWS SDK for Java v2, no retries) against both, then stops them: it
#      creates the same table on each (pk S, sk S, a global index on code S, sk S), loads it with
#      25-item batches, then measures inserts (32 clients), point reads (32), a Query of one
#      partition of 100 items, an index Query of 100 items and 25-item BatchWriteItems (8 each).
# The whole run takes about 3 minutes (5 with WARMUP=15): loading each server's table, then a
# warm-up pass over every phase (WARMUP s each) and a measured pass (SECONDS_PER_PHASE s each), the
# servers taking turns.
#
# Needs: a JDK 17+, Maven, Node.js 20+ and npm (Debian: apt-get install -y nodejs npm).
# Settings (environment): SECONDS_PER_PHASE (10), WARMUP (5), ITEMS (100000), PARTITIONS (ITEMS/100),
# LOAD_CLIENTS (8), HTTP_CLIENT (apache5, or url-connection), SERVER_JAVA_OPTS (-Xms1g -Xmx2g,
# Viewbase's JVM), SERVE_ARGS (more arguments for `viewbase serve`, e.g. "--io-threads 1"),
# DYNALITE_PORT (8100, the first port tried; the next free ones go to Viewbase), JFR (a file name:
# record a flight recording of Viewbase's JVM over the whole run into it), VIEWBASE_JAR (the server's
# jar, viewbase-cli/target/viewbase.jar), BEFORE_JAR (another build's viewbase.jar: compare the two
# builds side by side instead, "after" against "before", and leave dynalite out; the targets then
# read as after over before).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
# shellcheck source=servers.sh
source "$here/servers.sh"
# JAR overrides the driver's class path (e.g. target/classes:target/benchmarks.jar while editing it).
bench_jar="$here/target/benchmarks.jar"
driver_cp="${JAR:-$bench_jar}"
cli_jar="${VIEWBASE_JAR:-$root/viewbase-cli/target/viewbase.jar}"
dynalite_dir="$here/target/dynalite"
dynalite_bin="$dynalite_dir/node_modules/.bin/dynalite"
SECONDS_PER_PHASE="${SECONDS_PER_PHASE:-10}"
WARMUP="${WARMUP:-5}"
ITEMS="${ITEMS:-100000}"
PARTITIONS="${PARTITIONS:-$((ITEMS / 100))}"
LOAD_CLIENTS="${LOAD_CLIENTS:-8}"
HTTP_CLIENT="${HTTP_CLIENT:-apache5}"
SERVER_JAVA_OPTS="${SERVER_JAVA_OPTS:--Xms1g -Xmx2g}"
SERVE_ARGS="${SERVE_ARGS:-}"
DYNALITE_PORT="${DYNALITE_PORT:-8100}"
JFR="${JFR:-}"
BEFORE_JAR="${BEFORE_JAR:-}"

tools="java node npm"
[[ -z "$BEFORE_JAR" ]] || tools="java" # two builds of Viewbase: no dynalite to install
for tool in $tools; do
  command -v "$tool" >/dev/null || { echo "$tool is not installed (Debian: apt-get install -y nodejs npm)" >&2; exit 2; }
done

if [[ ! -f "$bench_jar" || ! -f "$cli_jar" ]]; then
  echo "building Viewbase (the jars are missing)..." >&2
  (cd "$root" && mvn -B -q package -DskipTests -pl viewbase-benchmarks,viewbase-cli -am)
fi
if [[ -n "$BEFORE_JAR" && ! -f "$BEFORE_JAR" ]]; then
  echo "BEFORE_JAR $BEFORE_JAR is not a file" >&2
  exit 2
fi
if [[ -z "$BEFORE_JAR" && ! -x "$dynalite_bin" ]]; then
  echo "installing dynalite 4 from the npm registry into $dynalite_dir..." >&2
  mkdir -p "$dynalite_dir"
  npm install --no-audit --no-fund --silent --prefix "$dynalite_dir" dynalite@4 >&2
fi

work="$(mktemp -d)"
peer_pid="" viewbase_pid=""
stop() {
  stop_pids "$viewbase_pid" "$peer_pid"
  peer_pid="" viewbase_pid=""
}
trap 'stop; rm -rf "$work"' EXIT

peer_port="$(free_port "$DYNALITE_PORT")"
dynamodb_port="$(free_port $((peer_port + 1)))"
native_port="$(free_port $((dynamodb_port + 1)))"

# dynalite as developers run it: in memory (no --path), its default delays (a table is CREATING
# for 500 ms; the driver waits for ACTIVE), no logging. Its bin entry is a Node shebang script and
# the subshell execs it, so $! is the server's own pid. With BEFORE_JAR the peer is that build of
# Viewbase instead, started as the subject is.
if [[ -z "$BEFORE_JAR" ]]; then
  (exec "$dynalite_bin" --host 127.0.0.1 --port "$peer_port") >"$work/peer.log" 2>&1 &
  peer_pid=$!
fi

# -XX:-UseDynamicNumberOfCompilerThreads keeps the JIT compiler threads alive, so that the driver
# can tell their CPU time apart (an exited thread's time stays in the process's total, not in a thread).
jfr_opts=""
if [[ -n "$JFR" ]]; then
  jfr_opts="-XX:StartFlightRecording=filename=$JFR,settings=profile"
fi
# shellcheck disable=SC2086 # SERVER_JAVA_OPTS, jfr_opts and SERVE_ARGS are lists of options, split on purpose.
serve() { # jar data-directory dynamodb-port native-port log [java options]
  local jar=$1 data=$2 dynamodb=$3 native=$4 log=$5
  shift 5
  java $SERVER_JAVA_OPTS -XX:-UseDynamicNumberOfCompilerThreads "$@" -jar "$jar" serve \
    --data "$data" --port "$native" --azure-port 0 --dynamodb-port "$dynamodb" $SERVE_ARGS >"$log" 2>&1 &
}
# shellcheck disable=SC2086 # jfr_opts is empty or one option.
serve "$cli_jar" "$work/viewbase" "$dynamodb_port" "$native_port" "$work/viewbase.log" $jfr_opts
viewbase_pid=$!
if [[ -n "$BEFORE_JAR" ]]; then
  serve "$BEFORE_JAR" "$work/before" "$peer_port" "$(free_port $((native_port + 1)))" "$work/peer.log"
  peer_pid=$!
  wait_for "$peer_pid" "$work/peer.log" "DynamoDB dialect on" "viewbase serve ($BEFORE_JAR)"
  wait_for "$viewbase_pid" "$work/viewbase.log" "DynamoDB dialect on" "viewbase serve"
  echo "[${SECONDS}s] after: $cli_jar (pid $viewbase_pid) on $dynamodb_port;" \
    "before: $BEFORE_JAR (pid $peer_pid) on $peer_port; load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2
  subject=after baseline=before
else
  wait_for "$peer_pid" "$work/peer.log" "listening at" "dynalite"
  wait_for "$viewbase_pid" "$work/viewbase.log" "DynamoDB dialect on" "viewbase serve"
  echo "[${SECONDS}s] dynalite $(node -p "require('$dynalite_dir/node_modules/dynalite/package.json').version")" \
    "on node $(node --version) (pid $peer_pid) on $peer_port;" \
    "viewbase (pid $viewbase_pid) DynamoDB dialect on $dynamodb_port;" \
    "load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2
  subject=viewbase baseline=dynalite
fi

# http.maxConnections: the JDK's HttpURLConnection keeps 5 idle connections per server unless told
# more; with 32 clients the url-connection transport would open a new one for most requests.
java -Xms512m -Xmx2g -Dhttp.maxConnections=64 \
  -cp "$driver_cp" io.viewbase.benchmarks.dynamodb.DynamoDbSdkBench \
  --target "$subject=http://127.0.0.1:$dynamodb_port@$viewbase_pid" \
  --target "$baseline=http://127.0.0.1:$peer_port@$peer_pid" \
  --seconds "$SECONDS_PER_PHASE" --warmup "$WARMUP" --items "$ITEMS" --partitions "$PARTITIONS" \
  --load-clients "$LOAD_CLIENTS" --http-client "$HTTP_CLIENT" --clock-ticks "$(getconf CLK_TCK)"
echo "[${SECONDS}s] load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
