// Starting and stopping the two servers, alike: spawn, then try a TCP connect every 10 ms until one
// succeeds (the start-to-open-port time), then stop with SIGTERM. azure-js-bench.sh starts the main
// run's servers itself and uses waitForPort through wait-port.mjs; the test-suite-like runs start
// theirs here, one fresh server per run.
import { spawn } from "node:child_process";
import { mkdirSync, openSync } from "node:fs";
import net from "node:net";
import { setTimeout as sleep } from "node:timers/promises";

/** Resolves when a TCP connect to 127.0.0.1:PORT succeeds; rejects if `alive()` turns false or after 120 s. */
export async function waitForPort(port, alive = () => true, timeoutMs = 120_000) {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise((resolve) => {
      const socket = net.connect({ host: "127.0.0.1", port });
      socket.once("connect", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => {
        socket.destroy();
        resolve(false);
      });
    });
    if (ok) return;
    if (!alive()) throw new Error(`the server exited before it opened port ${port}`);
    if (performance.now() > deadline) throw new Error(`port ${port} did not open in ${timeoutMs / 1000} s`);
    await sleep(10);
  }
}

/** A port nothing listens on now (the kernel's pick for a listener on port 0, closed again). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * The command that starts a server of this kind, fresh, listening on `port` for Azure Tables:
 * Viewbase through the repository's launcher, Azurite's azurite-table in memory in an empty directory.
 */
export function serverCommand(kind, { port, dir, launcher, azuriteBin, javaOpts = "", serveArgs = "" }) {
  mkdirSync(dir, { recursive: true });
  if (kind === "viewbase") {
    return {
      command: launcher,
      args: ["serve", "--data", `${dir}/data`, "--port", "0", "--azure-port", String(port), "--dynamodb-port", "0",
        ...serveArgs.split(/\s+/).filter(Boolean)],
      env: { ...process.env, VIEWBASE_JAVA_OPTS: `${javaOpts} -XX:-UseDynamicNumberOfCompilerThreads`.trim() },
      cwd: dir,
    };
  }
  return {
    command: azuriteBin,
    args: ["--tableHost", "127.0.0.1", "--tablePort", String(port), "--inMemoryPersistence", "--skipApiVersionCheck",
      "--disableProductStyleUrl", "--disableTelemetry", "--silent"],
    env: process.env,
    cwd: dir,
  };
}

// The servers started here and not stopped yet: killed if the driver exits early (a failed run).
const running = new Set();
process.on("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

/** Spawns the server and waits for its port: { child, pid, spawnedAt, portMs }. */
export async function startServer(kind, options) {
  const { command, args, env, cwd } = serverCommand(kind, options);
  const log = openSync(`${cwd}/server.log`, "a");
  const spawnedAt = performance.now();
  const child = spawn(command, args, { env, cwd, stdio: ["ignore", log, log] });
  running.add(child);
  let exited = false;
  child.once("exit", () => {
    exited = true;
    running.delete(child);
  });
  await waitForPort(options.port, () => !exited);
  return { child, pid: child.pid, spawnedAt, portMs: performance.now() - spawnedAt };
}

/** Stops a server started by startServer: SIGTERM, then waits for it to exit (SIGKILL after 20 s). */
export async function stopServer(server) {
  const { child } = server;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
  await exited;
  clearTimeout(timer);
}
