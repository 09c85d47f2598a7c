// node wait-port.mjs PORT PID SPAWNED_NS: waits until 127.0.0.1:PORT accepts a TCP connection (a
// try every 10 ms), fails if PID exits first, and prints the milliseconds (wall clock, 1 ms resolution) since SPAWNED_NS (the
// shell's `date +%s%N` just before it started the server): the start-to-open-port time.
import { waitForPort } from "./lib/servers.mjs";

const [port, pid, spawnedNs] = process.argv.slice(2);
const alive = () => {
  try {
    process.kill(Number(pid), 0);
    return true;
  } catch {
    return false;
  }
};
try {
  await waitForPort(Number(port), alive);
} catch (e) {
  console.error(e.message);
  process.exit(1);
}
console.log(Date.now() - Number(BigInt(spawnedNs) / 1_000_000n));
