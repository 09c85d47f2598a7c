#!/usr/bin/env bash
# The Azure SDK workload against Viewbase's Azure Tables dialect and against Azurite, side by side
# in one run (issue 6, acceptance 4). Prints one table: per phase and server, throughput, p50/p99
# latency and the server's CPU time per operation, then the ratios and the targets:
#   server CPU per point read and per insert >= 20x lower than Azurite's;
#   a partition query on a 100,000-entity table >= 100x faster;
# and the ceilings on two of them: the partition query's ratio were Viewbase to answer in no time
# (Azurite's p50 over one SDK round trip, the p50 of a point read by a single client), and the
# insert's were an insert to cost Viewbase no more CPU than a point read.
#
# What it does:
#   1. builds Viewbase if the jars are missing (mvn -B -q install -DskipTests);
#   2. installs Azurite 3 from the npm registry into viewbase-benchmarks/target/azurite (first run only);
#   3. starts azurite-table in memory and `viewbase serve` (RocksDB in a temporary directory, durable
#      writes, the default) on free loopback ports, both with the well-known devstoreaccount1 key;
#   4. runs AzureSdkBench (the official Java SDK, no retries) against both, then stops them; after
#      Viewbase's load it creates, through Viewbase's native API, a view of the big table keyed by
#      email, which answers the "lookup by email" phase there (Azurite, without views, scans).
# The whole run takes about 6 minutes: loading each server's table, then a warm-up pass over every
# phase (WARMUP s each) and a measured pass (SECONDS_PER_PHASE s each), the servers taking turns.
#
# Needs: a JDK 17+, Maven, Node.js 18+ and npm (Debian: apt-get install -y nodejs npm).
# Settings (environment): SECONDS_PER_PHASE (10), WARMUP (5), ENTITIES (100000), PARTITIONS (ENTITIES/100),
# LOAD_CLIENTS (8), SERVER_JAVA_OPTS (-Xms1g -Xmx2g, Viewbase's JVM), SERVE_ARGS (more arguments
# for `viewbase serve`, e.g. "--io-threads 1"), AZURITE_PORT (10102, the first port tried; the next
# free ones go to Viewbase).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
# shellcheck source=servers.sh
source "$here/servers.sh"
# JAR overrides the driver's class path (e.g. target/classes:target/benchmarks.jar while editing it).
bench_jar="$here/target/benchmarks.jar"
driver_cp="${JAR:-$bench_jar}"
cli_jar="$root/viewbase-cli/target/viewbase.jar"
azurite_dir="$here/target/azurite"
azurite_bin="$azurite_dir/node_modules/.bin/azurite-table"
SECONDS_PER_PHASE="${SECONDS_PER_PHASE:-10}"
WARMUP="${WARMUP:-5}"
ENTITIES="${ENTITIES:-100000}"
PARTITIONS="${PARTITIONS:-$((ENTITIES / 100))}"
LOAD_CLIENTS="${LOAD_CLIENTS:-8}"
SERVER_JAVA_OPTS="${SERVER_JAVA_OPTS:--Xms1g -Xmx2g}"
SERVE_ARGS="${SERVE_ARGS:-}"
AZURITE_PORT="${AZURITE_PORT:-10102}"

for tool in java node npm; do
  command -v "$tool" >/dev/null || { echo "$tool is not installed (Debian: apt-get install -y nodejs npm)" >&2; exit 2; }
done

if [[ ! -f "$bench_jar" || ! -f "$cli_jar" ]]; then
  echo "building Viewbase (the jars are missing)..." >&2
  (cd "$root" && mvn -B -q install -DskipTests)
fi
if [[ ! -x "$azurite_bin" ]]; then
  echo "installing Azurite 3 from the npm registry into $azurite_dir..." >&2
  mkdir -p "$azurite_dir"
  npm install --no-audit --no-fund --silent --prefix "$azurite_dir" azurite@3 >&2
fi

work="$(mktemp -d)"
azurite_pid="" viewbase_pid=""
stop() {
  stop_pids "$viewbase_pid" "$azurite_pid"
  azurite_pid="" viewbase_pid=""
}
trap 'stop; rm -rf "$work"' EXIT

azurite_port="$(free_port "$AZURITE_PORT")"
azure_port="$(free_port $((azurite_port + 1)))"
native_port="$(free_port $((azure_port + 1)))"

# Azurite as developers run it, in memory; --silent turns off its access log (which would cost it
# CPU that the workload does not ask for), --disableTelemetry keeps it off the network. It runs in
# its own empty directory (in memory it takes no --location). azurite-table is a Node shebang
# script and the subshell execs it, so $! is the server's own pid.
mkdir -p "$work/azurite"
(cd "$work/azurite" && exec "$azurite_bin" --tableHost 127.0.0.1 --tablePort "$azurite_port" \
  --inMemoryPersistence --skipApiVersionCheck --disableProductStyleUrl --disableTelemetry --silent) \
  >"$work/azurite.log" 2>&1 &
azurite_pid=$!

# -XX:-UseDynamicNumberOfCompilerThreads keeps the JIT compiler threads alive, so that the driver
# can tell their CPU time apart (an exited thread's time stays in the process's total, not in a thread).
# shellcheck disable=SC2086 # SERVER_JAVA_OPTS and SERVE_ARGS are lists of options, split on purpose.
java $SERVER_JAVA_OPTS -XX:-UseDynamicNumberOfCompilerThreads -jar "$cli_jar" serve --data "$work/viewbase" --port "$native_port" \
  --azure-port "$azure_port" --dynamodb-port 0 $SERVE_ARGS >"$work/viewbase.log" 2>&1 &
viewbase_pid=$!

wait_for "$azurite_pid" "$work/azurite.log" "successfully started" "azurite-table"
wait_for "$viewbase_pid" "$work/viewbase.log" "Azure Tables dialect on" "viewbase serve"
echo "[${SECONDS}s] azurite $("$azurite_bin" --version 2>/dev/null || true) (pid $azurite_pid) on $azurite_port;" \
  "viewbase (pid $viewbase_pid) Azure dialect on $azure_port, native API on $native_port;" \
  "load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2

# The JDK HTTP client keeps idle connections for 20 minutes, Azurite for 5 s: a connection left idle
# while the other server is measured would be reused after Azurite closed it (a reset). Closing idle
# connections after 2 s on the client side, for both servers alike, avoids that race.
java -Xms512m -Xmx2g -Djdk.httpclient.keepalive.timeout=2 \
  -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -Dorg.slf4j.simpleLogger.log.com.azure=off \
  -cp "$driver_cp" io.viewbase.benchmarks.azure.AzureSdkBench \
  --target "viewbase=http://127.0.0.1:$azure_port/devstoreaccount1@$viewbase_pid" \
  --target "azurite=http://127.0.0.1:$azurite_port/devstoreaccount1@$azurite_pid" \
  --views "viewbase=http://127.0.0.1:$native_port" \
  --seconds "$SECONDS_PER_PHASE" --warmup "$WARMUP" --entities "$ENTITIES" --partitions "$PARTITIONS" --load-clients "$LOAD_CLIENTS" \
  --clock-ticks "$(getconf CLK_TCK)"
echo "[${SECONDS}s] load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
