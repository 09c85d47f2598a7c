#!/usr/bin/env bash
# Lost unsynced data: proves that what `viewbase serve` acknowledges was synced, not merely written.
#
# The data directory is an ext4 file system on dm-flakey over a loop device. While writers load the
# server (single writes and two-item batches, a view over the table), the dm table is switched to
# drop_writes: from that instant nothing more reaches the "disk", as after a power cut, though the
# kernel still answers every write and sync as done. The server is then killed (-9), the file
# system unmounted (its last writes dropped too), the device switched back, remounted, and the
# server restarted on it. Checks, for every write acknowledged BEFORE the switch (a write
# acknowledged after it may be lost: the disk is "off"):
#   - it is present;               - nothing is there that no writer sent;
#   - no batch is half visible;    - the view equals its recomputation (verify: drift 0).
#
# Needs root, losetup, mkfs.ext4, dmsetup and a kernel with the dm-flakey target (`dmsetup targets`
# lists "flakey"); curl and the CLI jar (mvn -B -q package -pl viewbase-cli -am -DskipTests).
#   sudo viewbase-benchmarks/faults/lost-writes.sh [SECONDS_OF_LOAD]          (default 10)
#   viewbase-benchmarks/faults/lost-writes.sh --plain [SECONDS]   kill -9 on a plain directory, no dm:
#       checks the harness itself (and durability across a process crash), not a power cut.
# Exit 0: every check held; 1: a check failed (the lines above say which); 2: cannot run here.
set -euo pipefail

plain=false
if [[ "${1:-}" == "--plain" ]]; then
  plain=true
  shift
fi
load_seconds="${1:-10}"
root="$(cd "$(dirname "$0")/../.." && pwd)"
cli_jar="${VIEWBASE_JAR:-$root/viewbase-cli/target/viewbase.jar}"
# shellcheck source=../servers.sh
source "$root/viewbase-benchmarks/servers.sh"

cannot() {
  echo "cannot run here: $*" >&2
  exit 2
}
[[ -f "$cli_jar" ]] || cannot "no $cli_jar (build it: mvn -B -q package -pl viewbase-cli -am -DskipTests)"
command -v curl >/dev/null || cannot "no curl"

work="$(mktemp -d /tmp/viewbase-lost-writes.XXXXXX)"
loop="" dm="" mnt="$work/mnt" server_pid="" writer_pids=()
mkdir -p "$mnt"

cleanup() {
  set +e
  for pid in "${writer_pids[@]}" "$server_pid"; do
    [[ -n "$pid" ]] && kill -9 "$pid" 2>/dev/null
  done
  mountpoint -q "$mnt" && umount "$mnt"
  [[ -n "$dm" ]] && dmsetup remove "$dm" 2>/dev/null
  [[ -n "$loop" ]] && losetup -d "$loop"
  rm -rf "$work"
}
trap cleanup EXIT

if ! $plain; then
  [[ "$(id -u)" == 0 ]] || cannot "needs root (loop devices, device mapper, mount)"
  for tool in losetup mkfs.ext4 dmsetup; do
    command -v "$tool" >/dev/null || cannot "no $tool"
  done
  modprobe dm-flakey 2>/dev/null || true # where it is a module not loaded yet
  dmsetup targets 2>/dev/null | grep -q '^flakey' ||
    cannot "the kernel has no dm-flakey target (dmsetup targets: $(dmsetup targets 2>&1 | tr '\n' ' '))"
  truncate -s 512M "$work/disk.img"
  loop="$(losetup --find --show "$work/disk.img")"
  sectors="$(blockdev --getsz "$loop")"
  dm="viewbase-lost-$$"
  # a plain linear mapping while the disk is "on"; flakey with drop_writes when it is cut
  dmsetup create "$dm" --table "0 $sectors linear $loop 0"
  mkfs.ext4 -q "/dev/mapper/$dm"
  mount "/dev/mapper/$dm" "$mnt"
fi

data="$mnt/data"
port="$(free_port 18700)"
base="http://127.0.0.1:$port"

# start_server NAME: serve the data directory, logging to $work/NAME.log
start_server() {
  java -Xmx512m -jar "$cli_jar" serve --data "$data" --port "$port" --azure-port 0 --dynamodb-port 0 \
    >"$work/$1.log" 2>&1 &
  server_pid=$!
  wait_for "$server_pid" "$work/$1.log" "Viewbase listening on" "viewbase serve"
}

start_server before
curl -sf -X PUT "$base/v1/tables/Lost" >/dev/null
curl -sf -X PUT "$base/v1/views/LostByGroup" -H 'Content-Type: application/json' \
  -d '{"source":"Lost","partitionBy":"{group}","idBy":"{id}"}' >/dev/null

# writer N: single upserts w-N-i and batches (b-N-i-x, b-N-i-y); appends an id to its ack file
# only after a 200 answer. Every id it ever sent goes to its sent file first.
writer() {
  local n="$1" i=0 body
  while :; do
    i=$((i + 1))
    echo "w-$n-$i" >>"$work/sent.$n"
    if curl -sf -o /dev/null -X PUT "$base/v1/tables/Lost/items/p/w-$n-$i" \
      -H 'Content-Type: application/json' -d "{\"group\":\"g$((i % 7))\",\"n\":$i}"; then
      echo "w-$n-$i" >>"$work/ack.$n"
    fi
    echo "b-$n-$i" >>"$work/sent.$n"
    body="{\"operations\":[
      {\"op\":\"upsert\",\"table\":\"Lost\",\"partitionKey\":\"p\",\"id\":\"b-$n-$i-x\",\"item\":{\"group\":\"g$((i % 5))\"}},
      {\"op\":\"upsert\",\"table\":\"Lost\",\"partitionKey\":\"p\",\"id\":\"b-$n-$i-y\",\"item\":{\"group\":\"g$((i % 3))\"}}]}"
    if curl -sf -o /dev/null -X POST "$base/v1/batch" -H 'Content-Type: application/json' -d "$body"; then
      echo "b-$n-$i" >>"$work/ack.$n"
    fi
  done
}
for n in 1 2 3 4; do
  : >"$work/ack.$n"
  : >"$work/sent.$n"
  writer "$n" &
  writer_pids+=($!)
done
sleep "$load_seconds"

# The power cut: what was acknowledged up to here must survive. Copy the ack files first, then cut
# (an ack written between the copy and the cut is not counted: it may or may not survive).
cat "$work"/ack.* >"$work/must-survive"
if ! $plain; then
  dmsetup suspend --noflush "$dm"
  # up 0 s, down 3600 s: every write from now on is dropped (and reported done), reads pass
  dmsetup load "$dm" --table "0 $sectors flakey $loop 0 0 3600 1 drop_writes"
  dmsetup resume "$dm"
fi
sleep 1 # the server keeps acknowledging into the void
kill -9 "$server_pid"
wait "$server_pid" 2>/dev/null || true
server_pid=""
for pid in "${writer_pids[@]}"; do
  kill -9 "$pid" 2>/dev/null || true
done
writer_pids=()
cat "$work"/sent.* >"$work/sent"
if ! $plain; then
  umount "$mnt" # its writes are dropped as well
  dmsetup suspend "$dm"
  dmsetup load "$dm" --table "0 $sectors linear $loop 0"
  dmsetup resume "$dm"
  mount "/dev/mapper/$dm" "$mnt"
fi

start_server after
fail=0
acked="$(wc -l <"$work/must-survive")"
# every item, by a query of the whole table (pages of 1000)
: >"$work/present"
token=""
while :; do
  page="$(curl -sf "$base/v1/tables/Lost/items?limit=1000${token:+&continuation=$token}")"
  echo "$page" | grep -o '"id":"[^"]*"' | cut -d'"' -f4 >>"$work/present"
  token="$(echo "$page" | grep -o '"continuation":"[^"]*"' | cut -d'"' -f4 || true)"
  [[ -z "$token" ]] && break
  token="$(printf %s "$token" | jq -sRr @uri 2>/dev/null || printf %s "$token")"
done
sort -u "$work/present" -o "$work/present"

missing=0
while read -r id; do
  case "$id" in
    w-*) grep -qxF "$id" "$work/present" || { echo "LOST: acknowledged $id is missing"; missing=$((missing + 1)); } ;;
    b-*) for half in x y; do
        grep -qxF "$id-$half" "$work/present" || { echo "LOST: acknowledged batch $id lacks $id-$half"; missing=$((missing + 1)); }
      done ;;
  esac
done <"$work/must-survive"
[[ "$missing" == 0 ]] || fail=1

while read -r id; do
  case "$id" in
    w-*) grep -qxF "$id" "$work/sent" || { echo "UNEXPLAINED: $id was never sent"; fail=1; } ;;
    b-*-x | b-*-y)
      pair="${id%-?}"
      grep -qxF "$pair" "$work/sent" || { echo "UNEXPLAINED: $id was never sent"; fail=1; }
      other="$pair-x"; [[ "$id" == *-x ]] && other="$pair-y"
      grep -qxF "$other" "$work/present" || { echo "HALF BATCH: $id present without $other"; fail=1; } ;;
    *) echo "UNEXPLAINED: $id"; fail=1 ;;
  esac
done <"$work/present"

report="$(curl -sf -X POST "$base/v1/views/LostByGroup/verify")"
echo "view verify: $report"
echo "$report" | grep -q '"drift": *0[,}]' || { echo "DRIFT: the view differs from its recomputation"; fail=1; }

echo "mode: $($plain && echo 'plain directory, kill -9' || echo 'dm-flakey drop_writes, kill -9')," \
  "load ${load_seconds}s, acknowledged before the cut: $acked, present after restart: $(wc -l <"$work/present")" \
  "items, missing: $missing"
kill "$server_pid"
wait "$server_pid" 2>/dev/null || true
server_pid=""
exit "$fail"
