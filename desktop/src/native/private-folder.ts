/**
 * The one private folder per run where a compiled executable writes the native files it embeds
 * (issue 36 §1, decision 011): koffi's `.node`, libjpeg-turbo, the webview library. A system loads
 * a library from a real file only, and the runtime's own extraction cannot be trusted for it (Bun's
 * Windows build writes koffi's `.node` to a `\Device\HarddiskVolume1\…` path that Wine cannot open).
 *
 * - The folder is `<temp>/atelier-<pid>-XXXXXX`, made by `mkdtemp` (mode 0700, a fresh name: nothing
 *   another user planted can be loaded), created at the first file and only then.
 * - Linux and macOS let a mapped file be deleted: each file is removed once loaded
 *   (`releaseLoadedFile`), the folder at exit.
 * - Windows keeps a loaded DLL locked until the process ends, even in its `exit` handler. At exit the
 *   app therefore starts a copy of itself with `--nettoyer <folder>` (detached, no window), which
 *   removes the folder as soon as the files are free (`runCleaner`): after a normal exit, Ctrl+C or
 *   the window closed, nothing stays in `%TEMP%`.
 * - The window process (`--fenetre`, killed by the app when it is done: no exit handler of its own runs) writes
 *   into the app's folder, named by `NATIVE_FOLDER_ENV`, and leaves its removal to the app.
 * - After a crash (or a kill), the next start removes the folders whose process is gone
 *   (`sweepLeftovers`; on Windows the ones it can delete: a running copy's DLL is locked), and the folders of versions before issue 36 (`atelier-jpeg-…`,
 *   `atelier-fenetre-…`) older than an hour.
 */
import { spawn } from "node:child_process";
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** The first argument that makes the executable a cleaner (`main.ts` checks it before anything else). */
export const CLEANER_FLAG = "--nettoyer";
/** Set by the app for its window process: the folder to use instead of making one (`window.ts`). */
export const NATIVE_FOLDER_ENV = "ATELIER_DOSSIER_NATIF";
/** Prefix of the private folders (followed by the process id and a dash). */
export const FOLDER_PREFIX = "atelier-";
/** How long a cleaner keeps trying (ms): the app's last handlers and the window process end well before. */
export const CLEANER_TIMEOUT_MS = 60_000;
const CLEANER_RETRY_MS = 200;
/** Folders of earlier versions are removed once this old (ms): one still in use is then very unlikely. */
const LEGACY_AGE_MS = 3_600_000;
const LEGACY = /^atelier-(jpeg|fenetre)-/;
const CURRENT = /^atelier-(\d+)-[A-Za-z0-9]{6}$/;

/** An embedded file: its path inside the executable (Bun's `type: "file"` import) and the name to give it. */
export type EmbeddedFile = { file: string; name: string };

/** What the folder needs of the process (tests pass their own). */
export type FolderHost = {
  platform: NodeJS.Platform;
  pid: number;
  temp: string;
  /** Whether process `pid` still runs (signal 0). */
  isRunning(pid: number): boolean;
  /** Runs `fn` once as the process exits. */
  onExit(fn: () => void): void;
  /** Starts the cleaner for `folder`, detached (Windows only). */
  startCleaner(folder: string): void;
  /** Removes a folder and its files, true when gone (`removeFolder`). */
  remove(folder: string): boolean;
  /** The app's folder handed to its window process (`NATIVE_FOLDER_ENV`), if any. */
  inherited?: string;
};

/** Whether `folder` has this module's form, directly inside the temporary folder `temp`. */
function isPrivateFolder(folder: string, temp: string): boolean {
  return path.resolve(path.dirname(folder)) === path.resolve(temp) && CURRENT.test(path.basename(folder));
}

/** Whether process `pid` runs: signal 0 tests it without sending anything (EPERM: it runs, as another user). */
export function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The real process: its id, the system's temporary folder, and this very executable as the cleaner. */
export function processHost(): FolderHost {
  return {
    platform: process.platform,
    pid: process.pid,
    temp: tmpdir(),
    isRunning: processRuns,
    onExit: (fn) => process.once("exit", fn),
    startCleaner: (folder) => {
      // A compiled executable is its own program (Bun's argv[1] is then the embedded entry, not a file).
      const child = spawn(process.execPath, [CLEANER_FLAG, folder], {
        detached: true,
        stdio: "ignore",
        windowsHide: true,
      });
      // A cleaner that cannot start (no process left to spawn) must not crash the app: the next start removes the folder.
      child.once("error", () => {});
      child.unref();
    },
    remove: removeFolder,
    inherited: process.env[NATIVE_FOLDER_ENV],
  };
}

/**
 * Removes `folder` and what it holds, true when it is gone. Never throws: a file still locked (Windows)
 * says false. File by file with `unlink` and `rmdir`: Bun's recursive `rm` fails under Wine 8 with
 * « EFAULT: bad address in system call argument » (it asks for a delete mode Wine lacks).
 */
export function removeFolder(folder: string): boolean {
  try {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const inner = path.join(folder, entry.name);
      if (entry.isDirectory()) {
        if (!removeFolder(inner)) return false;
      } else unlinkSync(inner);
    }
    rmdirSync(folder);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT";
  }
}

/**
 * The private folder of this run (see the module comment). One instance per process: `nativeFolder()`.
 */
export class PrivateFolder {
  #folder: string | null = null;

  private readonly host: FolderHost;

  constructor(host: FolderHost) {
    this.host = host;
  }

  /** The folder's path, made at the first call (and its removal at exit arranged), or the app's one inherited. */
  path(): string {
    if (this.#folder) return this.#folder;
    const inherited = this.host.inherited;
    if (inherited && isPrivateFolder(inherited, this.host.temp) && existsSync(inherited)) {
      // The app's: it removes it at its exit (this process may be killed without running any handler).
      this.#folder = inherited;
      return inherited;
    }
    const folder = mkdtempSync(path.join(this.host.temp, `${FOLDER_PREFIX}${this.host.pid}-`));
    this.#folder = folder;
    this.host.onExit(() => this.removeAtExit());
    return folder;
  }

  /** Writes an embedded file into the folder (mode 0700); @returns its real path, for the system's loader. */
  write(embedded: EmbeddedFile): string {
    const file = path.join(this.path(), embedded.name);
    writeFileSync(file, readFileSync(embedded.file), { mode: 0o700 });
    return file;
  }

  /**
   * Once `file` is loaded (or failed to): removed at once where the system allows it (not Windows,
   * where the loaded file stays locked until the exit's cleaner).
   */
  releaseLoadedFile(file: string): void {
    if (this.host.platform === "win32") return;
    try {
      unlinkSync(file);
    } catch {
      // The folder goes at exit anyway.
    }
  }

  /** At exit: the folder removed now, or (Windows, files still locked) by a cleaner once they are free. */
  removeAtExit(): void {
    const folder = this.#folder;
    if (!folder) return;
    this.#folder = null;
    if (this.host.remove(folder)) return;
    if (this.host.platform === "win32") this.host.startCleaner(folder);
  }

  /**
   * Removes what earlier runs left in the temporary folder (a crash, a kill): the folders of processes
   * that no longer run, and legacy folders older than an hour. Only this prefix, only folders this user
   * may delete; a folder still locked (Windows) is left for later. @returns how many were removed.
   */
  sweepLeftovers(now = Date.now()): number {
    let removed = 0;
    let names: string[];
    try {
      names = readdirSync(this.host.temp);
    } catch {
      return 0;
    }
    for (const name of names) {
      const current = CURRENT.exec(name);
      const folder = path.join(this.host.temp, name);
      if (folder === this.#folder) continue;
      if (current) {
        // Windows reuses process ids at once (Wine gives the same few to every run): there, a folder in use is
        // known by its loaded DLL, which cannot be deleted. Elsewhere a loaded file is already gone, so the
        // process id tells whether the folder may still be written to.
        const pid = Number(current[1]);
        if (this.host.platform !== "win32" && (pid === this.host.pid || this.host.isRunning(pid))) continue;
      } else if (LEGACY.test(name)) {
        try {
          if (now - statSync(folder).mtimeMs < LEGACY_AGE_MS) continue;
        } catch {
          continue;
        }
      } else continue;
      if (this.host.remove(folder)) removed++;
    }
    return removed;
  }
}

let shared: PrivateFolder | undefined;

/** This process's private folder (one per run). */
export function nativeFolder(): PrivateFolder {
  shared ??= new PrivateFolder(processHost());
  return shared;
}

/**
 * The cleaner (`<app> --nettoyer <folder>`, Windows): removes `folder` once the files its parent loaded
 * are free, trying every 200 ms for `CLEANER_TIMEOUT_MS` at most. Only a folder of this app's own form
 * directly inside the temporary folder is touched, so the flag cannot be used to delete anything else.
 * @returns the exit code (0 removed, 1 refused or still locked).
 */
export async function runCleaner(args: readonly string[], temp = tmpdir(), timeoutMs = CLEANER_TIMEOUT_MS) {
  const folder = args[0] ?? "";
  if (!isPrivateFolder(folder, temp)) return 1;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (removeFolder(folder)) return 0;
    if (Date.now() > deadline) return 1;
    await new Promise((resolve) => setTimeout(resolve, CLEANER_RETRY_MS));
  }
}
