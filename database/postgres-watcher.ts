/**
 * Issue 28 §11: the embedded PostgreSQL stops when its server dies, however
 * it dies (kill -9, the OOM killer, a crash of Node itself).
 *
 * PostgreSQL's postmaster does not watch its parent (`pg_ctl start` detaches
 * it anyway), and a killed Node process runs no handler, so a tiny watcher
 * process does it: started by the server with a pipe on its stdin, it blocks
 * reading that pipe. The pipe closes when the server process ends, whatever
 * the cause (the kernel closes a dead process's descriptors), and the watcher
 * then runs `pg_ctl stop -m fast -W` for the cluster and exits. A clean stop
 * writes one line to it first: the watcher then exits without doing anything.
 *
 * - POSIX: `/bin/sh` (about 1.6 MB of memory; a Node watcher would hold
 *   about 43 MB, a sixth of the server's whole budget).
 * - Windows, which has no `sh`: the same in a few lines run by this Node
 *   executable. Both are tested on Linux (`postgres-watcher.test.ts`).
 * - In its own session/process group (`detached`): a Ctrl-C in the terminal
 *   reaches only the server, which then stops postgres in order (`stop()`).
 * - Never keeps the server's event loop alive, and a watcher that cannot
 *   start leaves the server as it was before (the next start stops a
 *   leftover postgres).
 */
import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";

/** The watcher's program and arguments; the folder is in them (so `ps` shows which cluster it watches). */
export type WatcherCommand = { command: string; args: string[] };

/** `$0` of the shell script: what `ps` shows for it. */
const NAME = "atelier-postgres-watcher";

// A full line means "stopped in order, nothing to do"; end of file (or a partial line) means the server is gone.
const SH_SCRIPT = `if read -r line; then exit 0; fi; exec "$1" stop -D "$2" -m fast -W -s`;

// The same for Windows; `process.argv` after `-e` is [node, pg_ctl, folder].
const NODE_SCRIPT = [
  `const { spawnSync } = require("node:child_process");`,
  `const [, pgCtl, folder] = process.argv;`,
  `let input = "";`,
  `process.stdin.on("data", (chunk) => { input += chunk; if (input.includes("\\n")) process.exit(0); });`,
  `process.stdin.on("end", () => {`,
  `  spawnSync(pgCtl, ["stop", "-D", folder, "-m", "fast", "-W", "-s"], { stdio: "ignore", windowsHide: true });`,
  `  process.exit(0);`,
  `});`,
].join("\n");

/**
 * The watcher's command line for `platform` (`process.platform` by default):
 * `/bin/sh -c …` on POSIX, `node -e …` (this process's executable) on
 * Windows. `pgCtl` and `folder` are absolute paths, passed as arguments
 * (never spliced into the script, so no quoting issue).
 */
export function watcherCommand(pgCtl: string, folder: string, platform = process.platform): WatcherCommand {
  if (platform === "win32") {
    return { command: process.execPath, args: ["-e", NODE_SCRIPT, pgCtl, folder] };
  }
  return { command: "/bin/sh", args: ["-c", SH_SCRIPT, NAME, pgCtl, folder] };
}

export type PostgresWatcher = {
  /** The watcher's pid (undefined when it could not be started). */
  pid: number | undefined;
  /**
   * After a clean `pg_ctl stop`: tells the watcher there is nothing to do
   * and resolves once it has exited (at most ~2 s: it is killed past that).
   * Idempotent; never rejects.
   */
  release(): Promise<void>;
};

/**
 * Starts the watcher of the cluster in `folder`. `options` are the spawn
 * options PostgreSQL's tools get (environment, and as root the uid/gid of the
 * account postgres runs as: that account may signal its postmaster);
 * `command` overrides the platform's one (tests). Starting never throws: a
 * spawn failure is reported to `onError` and the watcher is then inert.
 */
export function startPostgresWatcher(options: {
  pgCtl: string;
  folder: string;
  spawnOptions: SpawnOptions;
  command?: WatcherCommand;
  onError?: (error: Error) => void;
}): PostgresWatcher {
  const { command, args } = options.command ?? watcherCommand(options.pgCtl, options.folder);
  const onError = options.onError ?? (() => undefined);
  let child: ChildProcess;
  try {
    child = spawn(command, args, {
      ...options.spawnOptions,
      stdio: ["pipe", "ignore", "ignore"],
      detached: true,
      windowsHide: true,
    });
  } catch (error) {
    // Synchronous spawn errors (EPERM on setuid, a bad argument): no watcher, the server still runs.
    onError(error as Error);
    return { pid: undefined, release: () => Promise.resolve() };
  }
  child.once("error", onError);
  // EPIPE when the watcher is already gone (killed by hand): nothing to do then.
  child.stdin!.on("error", () => undefined);
  // The pipe and the child must not keep a server or a script that has finished from exiting.
  child.unref();
  unrefStream(child.stdin);

  const gone = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    child.once("exit", () => resolve());
    child.once("error", () => resolve());
  });
  let released: Promise<void> | undefined;
  return {
    pid: child.pid,
    release() {
      released ??= (async () => {
        // Referenced again while waiting: a script that awaits this must not exit first (the watcher
        // would then read end of file and stop a postgres that is already stopped: harmless, but useless).
        child.ref();
        refStream(child.stdin);
        if (child.stdin!.writable) child.stdin!.end("\n");
        const timer = setTimeout(() => child.kill("SIGKILL"), 2_000);
        await gone;
        clearTimeout(timer);
      })();
      return released;
    },
  };
}

/** The stdin pipe is a `net.Socket`, which has `ref()`/`unref()`; typed as a plain Writable. */
type Referable = { ref?: () => void; unref?: () => void };

function unrefStream(stream: unknown): void {
  (stream as Referable | null)?.unref?.();
}

function refStream(stream: unknown): void {
  (stream as Referable | null)?.ref?.();
}
