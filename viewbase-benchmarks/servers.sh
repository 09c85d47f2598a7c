# The server helpers the side-by-side scripts share (azure-bench.sh, azure-js-bench.sh,
# dynamodb-bench.sh, http-jars.sh): sourced by them, not run.

# free_port FROM: the first port at or above FROM that nothing on 127.0.0.1 accepts connections on.
free_port() {
  local port="$1"
  while (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do
    port=$((port + 1))
  done
  echo "$port"
}

# wait_for PID LOG PATTERN WHAT: waits (up to 120 s) until LOG contains PATTERN; fails if PID dies.
wait_for() {
  local pid="$1" log="$2" pattern="$3" what="$4"
  for _ in $(seq 1 1200); do
    grep -q "$pattern" "$log" 2>/dev/null && return 0
    kill -0 "$pid" 2>/dev/null || { cat "$log" >&2; echo "$what exited before it listened" >&2; exit 1; }
    sleep 0.1
  done
  cat "$log" >&2
  echo "$what did not start in 120 s" >&2
  exit 1
}

# stop_pids PID...: stops each of the processes (children of this shell) still running, and waits
# for it; empty arguments are skipped.
stop_pids() {
  local pid
  for pid in "$@"; do
    if [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null; then
      kill "$pid"
      wait "$pid" 2>/dev/null || true
    fi
  done
}
