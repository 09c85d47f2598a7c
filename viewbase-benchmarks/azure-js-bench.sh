#!/usr/bin/env bash
# The JavaScript SDK's workload against Viewbase's Azure Tables dialect and against Azurite, side by
# side in one run, on fresh servers (issue 25): what a CI job does with an emulator, start it, run a
# test suite of a few thousand requests through @azure/data-tables, stop it.
#
# What it does:
#   1. builds Viewbase if its jar is missing or older than the sources (mvn -B -q package -DskipTests
#      -pl viewbase-cli -am), so that the launcher does not build while a server start is timed;
#   2. copies src/main/js-azure's package.json, package-lock.json and .npmrc into target/js-azure and
#      runs `npm ci` there on first use (@azure/data-tables 13.3.2 and azurite, pinned; node_modules
#      stays under target/);
#   3. starts Viewbase through the repository's launcher (./viewbase serve, RocksDB in a fresh
#      temporary directory, durable writes, the default), then Azurite's azurite-table in memory in
#      an empty directory, one after the other, on free loopback ports, and times each from spawn to
#      the first TCP connect that succeeds (a try every 10 ms);
#   4. runs the driver (target/js-azure/bench.mjs, Node) against both. Phases, the servers taking
#      turns phase by phase: insert (ENTITIES createEntity, CLIENTS clients, 100 partitions, entities
#      of ten properties), point read (ENTITIES getEntity, CLIENTS clients), partition query (50,
#      serial), non-key filter (20, serial, `code eq '...'`, ENTITIES/1000 matches, compared by its
#      median), scan (3 full listEntities, serial), 100-op transaction (100 submitTransaction of 100
#      creates, TX_CLIENTS clients). The whole workload runs twice on the same servers ("first run",
#      "second run", new tables). Per phase and server: throughput, p50/p99 latency, the server's CPU
#      per operation (user + system from /proc/PID/stat, live children included), its CPU per thread
#      grouped by name without digits (C2 CompilerThread, GC Thread, rocksdb:low, ...; "exited
#      threads" is the rest), the driver's own CPU, and the TCP connections the SDK opened;
#   5. stops both (the driver does), then (unless SKIP_SUITE=1) runs a test-suite-like run REPEAT
#      times per server, alternating: a fresh server (a new data directory for Viewbase), 420 mixed
#      requests at most 4 at a time (a table, creates and upserts, gets, merges and replaces with
#      ETags, queries, two transactions, deletes, a 404, the table dropped), the server stopped;
#      timed from spawn to the last answer, server start included;
#   6. prints a markdown table, the ratios, the per-thread breakdowns and the issue's targets (first
#      run: server CPU per insert and per point read >= 5x lower than Azurite's, the non-key filter's
#      median <= Azurite's; second run: >= 20x lower; the suite's median time below Azurite's), and
#      writes every figure as JSON to RESULT.
# It takes about 1.5 minutes on 2 cores (the first time, plus npm ci and maybe the build).
#
# Needs: a JDK 17+, Maven, Node.js 20+ and npm (Debian: apt-get install -y nodejs npm), Linux (/proc).
# Settings (environment): ENTITIES (10000), CLIENTS (32), TX_CLIENTS (8), REPEAT (3), SKIP_SUITE (1
# skips step 5), SERVER_JAVA_OPTS (Viewbase's JVM options, none by default: users run the default;
# -XX:-UseDynamicNumberOfCompilerThreads is always added, so that no JIT thread exits and takes its
# time out of the per-thread figures), SERVE_ARGS (more arguments for `viewbase serve`), AZURITE_PORT
# (10102, the first port tried; the next free ones go to Viewbase), RESULT (target/js-azure/result.json).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
# shellcheck source=servers.sh
source "$here/servers.sh"
launcher="$root/viewbase"
cli_jar="$root/viewbase-cli/target/viewbase.jar"
js_src="$here/src/main/js-azure"
js_dir="$here/target/js-azure"
azurite_bin="$js_dir/node_modules/.bin/azurite-table"
export ENTITIES="${ENTITIES:-10000}" CLIENTS="${CLIENTS:-32}" TX_CLIENTS="${TX_CLIENTS:-8}" REPEAT="${REPEAT:-3}"
export SKIP_SUITE="${SKIP_SUITE:-}" SERVER_JAVA_OPTS="${SERVER_JAVA_OPTS:-}" SERVE_ARGS="${SERVE_ARGS:-}"
export RESULT="${RESULT:-$js_dir/result.json}"
AZURITE_PORT="${AZURITE_PORT:-10102}"

for tool in java mvn node npm; do
  command -v "$tool" >/dev/null || { echo "$tool is not installed (Debian: apt-get install -y nodejs npm)" >&2; exit 2; }
done

# The launcher's own test (see ./viewbase): a jar older than any pom or source file is rebuilt.
# sources_newer ACTION...: runs find's ACTION on every pom or source file newer than the jar.
sources_newer() {
  find "$root" \( -name target -o -name .git -o -name viewbase-data \) -prune -o \
    -type f \( -name pom.xml -o -path '*/src/*' \) -newer "$cli_jar" "$@"
}
stale() {
  [[ ! -f "$cli_jar" ]] && return 0
  [[ -n "$(sources_newer -print -quit)" ]]
}
if stale; then
  echo "building Viewbase (the jar is missing or older than the sources)..." >&2
  (cd "$root" && mvn -B -q package -DskipTests -pl viewbase-cli -am) >&2
  # Maven leaves a jar whose contents did not change as it was; the sources that are newer (this
  # driver's, say) are not in it. Give them the jar's time, or the launcher would build again,
  # timed; touching the jar instead would part it from its class-data-sharing archive, which the
  # JVM checks against the jar's time.
  if stale; then sources_newer -exec touch -r "$cli_jar" {} +; fi
fi

# The driver and its pinned packages, installed under target/ (npm ci again when the lock changed).
mkdir -p "$js_dir"
if [[ ! -x "$azurite_bin" ]] || ! cmp -s "$js_src/package-lock.json" "$js_dir/package-lock.json"; then
  echo "installing @azure/data-tables and azurite (npm ci) into $js_dir..." >&2
  cp "$js_src/package.json" "$js_src/package-lock.json" "$js_src/.npmrc" "$js_dir/"
  (cd "$js_dir" && npm ci --silent >&2)
fi
rm -rf "$js_dir/lib"
cp -r "$js_src/bench.mjs" "$js_src/wait-port.mjs" "$js_src/lib" "$js_dir/"

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

# Viewbase through the launcher, as users run it; the launcher execs java, so $! is the JVM.
spawned="$(date +%s%N)"
# shellcheck disable=SC2086 # SERVE_ARGS is a list of arguments, split on purpose.
VIEWBASE_JAVA_OPTS="$SERVER_JAVA_OPTS -XX:-UseDynamicNumberOfCompilerThreads" "$launcher" serve --data "$work/viewbase" \
  --port "$native_port" --azure-port "$azure_port" --dynamodb-port 0 $SERVE_ARGS >"$work/viewbase.log" 2>&1 &
viewbase_pid=$!
viewbase_ms="$(node "$js_dir/wait-port.mjs" "$azure_port" "$viewbase_pid" "$spawned")" \
  || { cat "$work/viewbase.log" >&2; exit 1; }
wait_for "$viewbase_pid" "$work/viewbase.log" "Azure Tables dialect on" "viewbase serve"

# Azurite as developers run it, in memory, in its own empty directory; --silent turns off its access
# log, --disableTelemetry keeps it off the network. azurite-table is a Node shebang script and the
# subshell execs it, so $! is the server's own pid.
mkdir -p "$work/azurite"
spawned="$(date +%s%N)"
(cd "$work/azurite" && exec "$azurite_bin" --tableHost 127.0.0.1 --tablePort "$azurite_port" \
  --inMemoryPersistence --skipApiVersionCheck --disableProductStyleUrl --disableTelemetry --silent) \
  >"$work/azurite.log" 2>&1 &
azurite_pid=$!
azurite_ms="$(node "$js_dir/wait-port.mjs" "$azurite_port" "$azurite_pid" "$spawned")" \
  || { cat "$work/azurite.log" >&2; exit 1; }
wait_for "$azurite_pid" "$work/azurite.log" "successfully started" "azurite-table"

echo "[${SECONDS}s] viewbase (pid $viewbase_pid) Azure dialect on $azure_port, port open after $viewbase_ms ms;" \
  "azurite $("$azurite_bin" --version 2>/dev/null || true) (pid $azurite_pid) on $azurite_port, port open after $azurite_ms ms;" \
  "load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2

status=0
LAUNCHER="$launcher" AZURITE_BIN="$azurite_bin" WORK="$work" CLK_TCK="$(getconf CLK_TCK)" \
  node "$js_dir/bench.mjs" \
  --target "viewbase,http://127.0.0.1:$azure_port/devstoreaccount1,$viewbase_pid,$viewbase_ms" \
  --target "azurite,http://127.0.0.1:$azurite_port/devstoreaccount1,$azurite_pid,$azurite_ms" \
  || status=$?
echo "[${SECONDS}s] load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
exit "$status"
