/**
 * Issue 16 §2: the embedded PostgreSQL as the server uses it, through
 * `openDatabase({ dataDir })`: created at first start, kept across restarts,
 * reachable only on 127.0.0.1 with its password, one server per data folder,
 * stopped by `close()`, by a crashing process and by its watcher when the
 * process is killed (issue 28 §11), restarted over the postgres a killed
 * server and its watcher left running, and importing a shop's PGlite data.
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, readdirSync, readlinkSync, statSync } from "node:fs";
import { chmod, mkdtemp, mkdir, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { DatabaseLockedError, openDatabase, type DatabaseHandle } from "./connection.ts";
import { reachableBinaries, runningPostmaster } from "./embedded-postgres.ts";
import { contactRequests } from "./schema.ts";

const connectionModule = path.resolve(import.meta.dirname, "connection.ts");
let dataDir: string;
const handles: DatabaseHandle[] = [];

async function open(
  extra: { onProgress?: (message: string) => void; lockRetries?: number; onToolLaunched?: () => void } = {},
) {
  const handle = await openDatabase({ dataDir, ...extra });
  handles.push(handle);
  return handle;
}

afterEach(async () => {
  for (const handle of handles.splice(0)) await handle.close();
  await rm(dataDir, { recursive: true, force: true });
});

/**
 * A Node process that opens the database of `dataDir`, prints `ouvert`, then
 * runs `then` (`kill`: waits to be killed; `exit`: process.exit(1) without closing).
 */
async function childServer(then: "wait" | "exit") {
  const script =
    `const { openDatabase } = await import(${JSON.stringify(connectionModule)});` +
    `await openDatabase({ dataDir: ${JSON.stringify(dataDir)} });` +
    `console.log("ouvert");` +
    (then === "exit" ? "process.exit(1);" : "setInterval(() => undefined, 1000);");
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("ouvert")) resolve();
    });
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", (code) => (code === 1 && then === "exit" ? resolve() : reject(new Error(output))));
  });
  return child;
}

async function until(check: () => boolean, timeoutMs = 20_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return check();
}

/** The pid of the watcher of the cluster in `folder` (`postgres-watcher.ts`), from `ps`. */
function watcherOf(folder: string): number | undefined {
  const table = execFileSync("ps", ["-ww", "-eo", "pid=,args="], { encoding: "utf8" });
  const line = table.split("\n").find((row) => row.includes("atelier-postgres-watcher") && row.includes(folder));
  return line ? Number(line.trim().split(/\s+/, 1)[0]) : undefined;
}

describe("embedded PostgreSQL (default database)", () => {
  it("is created at first start, keeps its data across a stop and a start, and stops with close()", async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "atelier-embedded-"));
    const progress: string[] = [];
    const first = await open({ onProgress: (message) => progress.push(message) });
    expect(first.kind).toBe("embedded-postgres");
    expect(progress.join("\n")).toMatch(/création de la base PostgreSQL intégrée/);
    await first.db.insert(contactRequests).values({ name: "Léa", email: "lea@exemple.fr", message: "Bonjour" });
    await first.close();
    const folder = path.join(dataDir, "postgres");
    expect(runningPostmaster(folder)).toBeUndefined();

    const later: string[] = [];
    // The server loads its modules once PostgreSQL is launched (issue 29): told before the database is open.
    let launchedBeforeOpen = false;
    let opened = false;
    const second = await open({
      onProgress: (message) => later.push(message),
      onToolLaunched: () => (launchedBeforeOpen ||= !opened),
    });
    opened = true;
    expect(launchedBeforeOpen).toBe(true);
    expect(later).toEqual([]);
    const rows = await second.db.select().from(contactRequests);
    expect(rows.map((row) => row.name)).toEqual(["Léa"]);
  });

  it("listens on 127.0.0.1 only and refuses a connection without its password", async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "atelier-embedded-"));
    const handle = await open();
    const result = await handle.pool!.query<{ listen: string; sockets: string; ssl: string }>(
      "select current_setting('listen_addresses') as listen, current_setting('unix_socket_directories') as sockets",
    );
    expect(result.rows[0]).toMatchObject({ listen: "127.0.0.1", sockets: "" });
    const port = (await handle.pool!.query<{ port: string }>("select current_setting('port') as port")).rows[0]!.port;
    const intruder = new pg.Client({ host: "127.0.0.1", port: Number(port), user: "atelier", password: "devine" });
    await expect(intruder.connect()).rejects.toThrow(/password authentication failed/);
  });

  it("refuses a second server on the same data folder with a French message", async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "atelier-embedded-"));
    await open();
    const second = openDatabase({ dataDir, lockRetries: 0 });
    await expect(second).rejects.toBeInstanceOf(DatabaseLockedError);
    await expect(second).rejects.toThrow(/déjà utilisé par un autre serveur/);
  });

  it("stops postgres when the process exits without closing (a fatal error)", async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "atelier-embedded-"));
    await childServer("exit");
    const folder = path.join(dataDir, "postgres");
    expect(await until(() => runningPostmaster(folder) === undefined)).toBe(true);
  });

  it("stops postgres within 5 s when the process is killed with SIGKILL (issue 28 §11)", async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "atelier-embedded-"));
    const child = await childServer("wait");
    const folder = path.join(dataDir, "postgres");
    expect(runningPostmaster(folder)).toBeDefined();
    child.kill("SIGKILL");
    expect(await until(() => runningPostmaster(folder) === undefined, 5_000)).toBe(true);
    expect(await until(() => watcherOf(folder) === undefined, 1_000)).toBe(true);
  });

  it("starts over the postgres left running by a killed server and watcher, and keeps the data", async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "atelier-embedded-"));
    const child = await childServer("wait");
    const folder = path.join(dataDir, "postgres");
    // Both killed (a kill -9 of the whole process tree): nothing stops postgres until the next start.
    process.kill(watcherOf(folder)!, "SIGKILL");
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));
    const leftover = runningPostmaster(folder);
    expect(leftover).toBeDefined();

    const progress: string[] = [];
    // Default lock retries: the killed server's lock turns stale within 5 s.
    const handle = await open({ onProgress: (message) => progress.push(message) });
    expect(progress.join("\n")).toMatch(/laissé en marche par un serveur arrêté brutalement/);
    expect(runningPostmaster(folder)).not.toBe(leftover);
    await handle.db.insert(contactRequests).values({ name: "Léa", email: "lea@exemple.fr", message: "Bonjour" });
    expect(await handle.db.$count(contactRequests)).toBe(1);
  });
});

describe("runningPostmaster", () => {
  it("ignores a postmaster.pid whose process is alive but not this folder's postgres (pid reused after a reboot)", async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "atelier-embedded-"));
    const folder = path.join(dataDir, "postgres");
    await mkdir(folder);
    await writeFile(path.join(folder, "postmaster.pid"), `${process.pid}\n${folder}\n`);
    expect(runningPostmaster(folder)).toBeUndefined();
  });
});

describe("reachableBinaries (root: postgres runs as another account)", () => {
  const nobody = { name: "nobody", uid: 65_534, gid: 65_534 };
  const copies: string[] = [];
  afterEach(async () => {
    for (const copy of copies.splice(0)) await rm(copy, { recursive: true, force: true });
  });

  /** A package's `native` folder (fake binaries) inside `dataDir`, whose mode is `mode`. */
  async function fakePackage(mode: number) {
    dataDir = await mkdtemp(path.join(tmpdir(), "atelier-embedded-"));
    const native = path.join(dataDir, "native");
    await mkdir(path.join(native, "bin"), { recursive: true });
    await mkdir(path.join(native, "lib"));
    for (const tool of ["initdb", "pg_ctl", "postgres"]) {
      await writeFile(path.join(native, "bin", tool), `#!/bin/sh\n# ${tool} ${dataDir}\n`, { mode: 0o755 });
    }
    await writeFile(path.join(native, "lib", "libpq.so.5.18"), "");
    await symlink("libpq.so.5.18", path.join(native, "lib", "libpq.so.5"));
    await chmod(dataDir, mode);
    const bin = (tool: string) => path.join(native, "bin", tool);
    return { initdb: bin("initdb"), pg_ctl: bin("pg_ctl"), postgres: bin("postgres") };
  }

  it("keeps binaries the account can reach where they are", async () => {
    const binaries = await fakePackage(0o755);
    expect(await reachableBinaries(binaries, nobody, () => undefined)).toEqual(binaries);
  });

  it("copies them, symlinks kept, to a folder of the system's temporary folder the account can reach", async () => {
    const binaries = await fakePackage(0o700);
    const progress: string[] = [];
    const copy = await reachableBinaries(binaries, nobody, (message) => progress.push(message));
    const folder = path.dirname(path.dirname(copy.postgres));
    copies.push(folder);
    expect(path.dirname(folder)).toBe(tmpdir());
    expect(statSync(folder).mode & 0o777).toBe(0o755);
    expect(statSync(copy.initdb).mode & 0o111).toBe(0o111);
    expect(readlinkSync(path.join(folder, "lib", "libpq.so.5"))).toBe("libpq.so.5.18");
    expect(progress.join("\n")).toMatch(/binaires PostgreSQL copiés dans/);
    // The next start reuses the copy.
    expect(await reachableBinaries(binaries, nobody, () => undefined)).toEqual(copy);
  });

  it("refuses a folder of that name that others may write to", async () => {
    const binaries = await fakePackage(0o700);
    const first = await reachableBinaries(binaries, nobody, () => undefined);
    const folder = path.dirname(path.dirname(first.postgres));
    copies.push(folder);
    await chmod(folder, 0o777);
    await expect(reachableBinaries(binaries, nobody, () => undefined)).rejects.toThrow(/modifiable par d'autres/);
  });
});

describe("existing PGlite data (DATA_DIR/pglite)", () => {
  async function fillPglite() {
    const pglite = await openDatabase({ dataDir, embedded: "pglite" });
    await pglite.db.insert(contactRequests).values([
      { name: "Léa", email: "lea@exemple.fr", message: "Écran noir" },
      { name: "Marc", email: "marc@exemple.fr", message: "Clavier" },
    ]);
    await pglite.db.execute(sql`insert into socket_io_attachments (payload) values ('\\x00ff'::bytea)`);
    await pglite.close();
  }

  it("is imported at the first start, the old folder kept aside and the log told", async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "atelier-embedded-"));
    await fillPglite();
    const progress: string[] = [];
    const handle = await open({ onProgress: (message) => progress.push(message) });
    const rows = await handle.db.select().from(contactRequests).orderBy(contactRequests.name);
    expect(rows.map((row) => [row.name, row.email, row.message])).toEqual([
      ["Léa", "lea@exemple.fr", "Écran noir"],
      ["Marc", "marc@exemple.fr", "Clavier"],
    ]);
    // The bigserial goes on after PGlite's last value; bytea survives the copy.
    const next = (await handle.db.execute(
      sql`insert into socket_io_attachments (payload) values ('\\x01'::bytea) returning id`,
    )) as unknown as { rows: { id: string }[] };
    expect(next.rows[0]!.id).toBe("2");
    const payload = (await handle.db.execute(
      sql`select encode(payload, 'hex') as hex from socket_io_attachments where id = 1`,
    )) as unknown as { rows: { hex: string }[] };
    expect(payload.rows[0]!.hex).toBe("00ff");

    expect(progress.join("\n")).toMatch(/données PGlite importées : \d+ lignes/);
    const entries = readdirSync(dataDir);
    expect(entries).not.toContain("pglite");
    expect(entries.some((name) => name.startsWith("pglite-importe-"))).toBe(true);
    expect(entries).not.toContain("postgres.importing");
  });

  it("is imported again from the start when the previous import was interrupted", async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "atelier-embedded-"));
    await fillPglite();
    // What a server killed during an import leaves: the marker and a half-made cluster.
    await writeFile(path.join(dataDir, "postgres.importing"), "");
    await mkdir(path.join(dataDir, "postgres"), { recursive: true });
    await writeFile(path.join(dataDir, "postgres", "PG_VERSION"), "18\n");
    const handle = await open();
    expect(await handle.db.$count(contactRequests)).toBe(2);
    expect(existsSync(path.join(dataDir, "postgres.importing"))).toBe(false);
  });
});
