/**
 * Issue 38 §3, « Reboot and reconnect », simulated on Linux end to end (no real restart in CI): the whole app
 * (`runApp`, its terminal) against the real server (PGlite), a technician's Socket.IO link, a temporary HOME.
 * The technician asks; the customer presses O; the app writes its resume file, its XDG autostart entry and asks
 * a (fake) restart; the test « restarts » by stopping the app as the system would (SIGTERM) and running what the
 * entry's `Exec=` says (read back as a desktop reads it); the new process rejoins the same session by itself,
 * shows who is there and offers V again; the technician sees « Redémarrage en cours… » then the app back; the
 * entry and the resume file are gone. Once more with the entry's command run for real (Node, `main.ts`, the HOME). Also: N declines (nothing registered), a refused restart undoes everything,
 * and a process resumed with a spent ticket removes the entry all the same.
 */
import { spawn } from "node:child_process";
import { EventEmitter } from "node:events";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { DeviceView } from "#app/remote-support/device-protocol.ts";
import { ELEVATION_MESSAGES } from "#app/remote-support/elevation-protocol.ts";
import { REBOOT_MESSAGES, rebootPending } from "#app/remote-support/reboot-protocol.ts";
import { emptyTables, openTestDatabase, type TestDatabase } from "#tests/support/databases.ts";
import {
  connectSocket,
  createAccounts,
  nextEvent,
  startRemoteSupportServer,
  type RemoteSupportServer,
  type Role,
  type TestAccount,
  type TestSocket,
} from "#tests/support/remote-support.ts";
import { asAccount } from "#server/remote-support/device-testing.ts";
import { recordingInjector } from "../../test/fakes.ts";
import { type AppDeps, runApp } from "../app.ts";
import { makeImage } from "../capture/test-images.ts";
import { linuxAutostart, linuxAutostartFile, parseDesktopExec } from "./autostart.ts";
import { rebootResumeFolder } from "./reboot-flow.ts";
import { REBOOT_TEXTS } from "./reboot-texts.ts";

const MAIN = fileURLToPath(new URL("../main.ts", import.meta.url));

let database: TestDatabase;
let server: RemoteSupportServer;
let accounts: Record<Role, TestAccount>;
let as: ReturnType<typeof asAccount>;
let home: string;
const opened: TestSocket[] = [];

beforeAll(async () => {
  database = await openTestDatabase("pglite");
  server = await startRemoteSupportServer(database);
  accounts = await createAccounts(server, database);
  as = asAccount(server, accounts);
});
beforeEach(async () => {
  await emptyTables(database.db);
  home = mkdtempSync(path.join(tmpdir(), "reboot-home-"));
});
afterEach(() => {
  for (const socket of opened.splice(0)) socket.close();
  rmSync(home, { recursive: true, force: true });
});
afterAll(async () => {
  await server?.close();
  await database?.dispose();
});

/** The app in a terminal, with this HOME's autostart and resume folder and a restart that only counts. */
function start(args: string[], restart: () => Promise<void> = async () => {}) {
  const out: string[] = [];
  const stdout = Object.assign(new PassThrough(), { isTTY: true, columns: 120 });
  stdout.on("data", (chunk: Buffer) => out.push(chunk.toString()));
  const signals = new EventEmitter();
  const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => stdin });
  const image = makeImage(800, 600, [90, 90, 90]);
  const deps: AppDeps = {
    args,
    defaultServer: server.url,
    stdin,
    stdout,
    stderr: { write: (text: string) => out.push(text) },
    createInjector: async () => recordingInjector().injector,
    createPicture: async () => ({
      capturer: { status: () => ({ ok: true }), grab: () => image, close: () => {} },
      encoder: { status: () => ({ ok: true }), encode: () => new Uint8Array(100).fill(7), close: () => {} },
    }),
    columns: () => 120,
    signals: signals as unknown as AppDeps["signals"],
    platform: "linux",
    relaunchCommand: [process.execPath, MAIN],
    reboot: {
      createAutostart: async () => linuxAutostart({ home, env: {} }),
      restart,
      folder: () => rebootResumeFolder("linux", {}, home),
    },
  };
  const exit = runApp(deps);
  const screen = () => (out.join("").split("\x1b[H\x1b[2J").at(-1) ?? "").replace(/\s+/g, " ");
  return { exit, stdin, signals, screen, text: () => out.join("").replace(/\s+/g, " ") };
}

const deviceView = async (code: string) =>
  (await as("technician", "get", `/api/sessions/${code}/device`)).body.device as DeviceView;

/** An app session started by « Marie », taken by the technician, whose browser link is returned. */
async function joined(app: ReturnType<typeof start>) {
  app.stdin.write("Marie\n");
  let code = "";
  await expect
    .poll(() => (code = /Code de session : (\w{3}) (\w{3})/.exec(app.screen())?.slice(1).join("") ?? ""))
    .not.toBe("");
  expect((await as("technician", "post", "/api/sessions/join").send({ code })).status).toBe(200);
  await expect.poll(() => app.screen()).toContain("Camille, technicien de l'atelier, est connecté.");
  const technician = await connectSocket(server.url, accounts.technician.cookie);
  opened.push(technician);
  return { code, technician };
}

/** The entry's Exec line, read as a desktop reads it. */
function entryCommand(): string[] {
  const text = readFileSync(linuxAutostartFile({ home, env: {} }), "utf8");
  return parseDesktopExec(/^Exec=(.*)$/m.exec(text)![1]!);
}

describe("« Redémarrer l'ordinateur », simulated on Linux", () => {
  it("registers, restarts, comes back into the same session by itself, and leaves nothing registered", async () => {
    let restarts = 0;
    const first = start(["--interface", "terminal"], async () => void (restarts += 1));
    const { code, technician } = await joined(first);
    expect(await technician.timeout(5_000).emitWithAck("reboot:request", { code })).toEqual({ ok: true });
    await expect.poll(() => first.screen()).toContain("O : accepter le redémarrage de l'ordinateur.");
    expect(first.screen()).toContain(REBOOT_TEXTS.asked);

    const told = nextEvent(technician, "reboot:news");
    first.stdin.write("o");
    expect((await told)[0]).toMatchObject({ code, outcome: "restarting", message: REBOOT_MESSAGES.restarting });
    await expect.poll(() => restarts).toBe(1);
    expect(first.screen()).toContain(REBOOT_TEXTS.restarting);

    // The entry: this program again, on the same server, with the resume file (never the ticket itself).
    const command = entryCommand();
    expect(command.slice(0, 6)).toEqual([process.execPath, MAIN, "--server", server.url, "--interface", "terminal"]);
    expect(command[6]).toBe("--reprendre");
    const file = command[7]!;
    expect(path.dirname(path.dirname(file))).toBe(path.join(home, ".local", "state", "atelier-assistance"));
    const { ticket } = JSON.parse(readFileSync(file, "utf8")) as { ticket: string };
    expect(readFileSync(linuxAutostartFile({ home, env: {} }), "utf8")).not.toContain(ticket);

    // The system stops the app: it does not leave, the session waits, the technician reads that it restarts.
    first.signals.emit("SIGTERM");
    expect(await first.exit).toBe(0);
    await expect.poll(async () => (await deviceView(code)).connected).toBe(false);
    const away = await deviceView(code);
    expect(away.paired).toBe(true);
    expect(rebootPending(away.rebootingUntil)).toBe(true);
    expect(existsSync(linuxAutostartFile({ home, env: {} }))).toBe(true);

    // The next sign-in runs the entry.
    const second = start(command.slice(2));
    await expect.poll(() => second.screen()).toContain("Camille, technicien de l'atelier, est connecté.");
    expect(second.screen()).toContain(REBOOT_TEXTS.resumed);
    expect(second.screen()).toContain("V : autoriser le technicien à voir l'écran.");
    expect(second.screen()).not.toContain("Code de session");
    expect(existsSync(linuxAutostartFile({ home, env: {} }))).toBe(false);
    expect(existsSync(file)).toBe(false);
    expect(existsSync(path.dirname(file))).toBe(false);
    await expect.poll(async () => (await deviceView(code)).connected).toBe(true);
    expect(await deviceView(code)).toMatchObject({ paired: true, rebootingUntil: null, viewConsent: false });

    // Seeing the screen allowed again; then the customer stops, which ends the session as usual.
    second.stdin.write("v");
    await expect.poll(async () => (await deviceView(code)).appPicture).toBe(true);
    second.signals.emit("SIGINT");
    expect(await second.exit).toBe(0);
    expect(readdirSync(path.join(home, ".config", "autostart"))).toEqual([]);
  });

  it("the entry's own command, run as is at the next sign-in (Node and the sources), rejoins and cleans up", async () => {
    let restarts = 0;
    const first = start(["--interface", "terminal"], async () => void (restarts += 1));
    const { code, technician } = await joined(first);
    await technician.timeout(5_000).emitWithAck("reboot:request", { code });
    await expect.poll(() => first.screen()).toContain("O : accepter");
    first.stdin.write("o");
    await expect.poll(() => restarts).toBe(1);
    first.signals.emit("SIGTERM");
    await first.exit;

    const [program, ...args] = entryCommand();
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, DISPLAY: "", WAYLAND_DISPLAY: "" };
    delete env.XDG_CONFIG_HOME;
    delete env.XDG_STATE_HOME;
    const child = spawn(program!, args, { env, stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (out += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    try {
      await expect.poll(() => out, { timeout: 20_000 }).toContain("Camille, technicien de l'atelier, est connecté.");
      expect(out.replace(/\s+/g, " ")).toContain(REBOOT_TEXTS.resumed);
      expect(existsSync(linuxAutostartFile({ home, env: {} }))).toBe(false);
      expect(readdirSync(rebootResumeFolder("linux", {}, home))).toEqual([]);
      await expect.poll(async () => (await deviceView(code)).connected).toBe(true);
      expect((await deviceView(code)).rebootingUntil).toBeNull();
    } finally {
      child.kill("SIGTERM");
    }
    expect(await exited).toBe(0);
  }, 40_000);

  it("N declines: nothing registered, the technician reads it, the session goes on", async () => {
    const app = start(["--interface", "terminal"]);
    const { code, technician } = await joined(app);
    await technician.timeout(5_000).emitWithAck("reboot:request", { code });
    await expect.poll(() => app.screen()).toContain("N : refuser");
    const told = nextEvent(technician, "reboot:news");
    app.stdin.write("n");
    expect((await told)[0]).toMatchObject({ outcome: "declined", message: REBOOT_MESSAGES.declined });
    await expect.poll(() => app.screen()).toContain(REBOOT_TEXTS.declined);
    expect(existsSync(linuxAutostartFile({ home, env: {} }))).toBe(false);
    expect(await deviceView(code)).toMatchObject({ connected: true, rebootingUntil: null });
    app.signals.emit("SIGINT");
    await app.exit;
  });

  it("a refused restart removes the entry and the file, and says so on both sides", async () => {
    const app = start(["--interface", "terminal"], async () => {
      throw new Error("L'ordinateur n'a pas pu être redémarré (Access denied).");
    });
    const { code, technician } = await joined(app);
    await technician.timeout(5_000).emitWithAck("reboot:request", { code });
    await expect.poll(() => app.screen()).toContain("O : accepter");
    const told = record(technician);
    app.stdin.write("o");
    await expect.poll(() => told.map((news) => news.outcome)).toEqual(["restarting", "failed"]);
    await expect.poll(() => app.screen()).toContain("Access denied");
    expect(existsSync(linuxAutostartFile({ home, env: {} }))).toBe(false);
    expect(readdirSync(rebootResumeFolder("linux", {}, home))).toEqual([]);
    await expect.poll(async () => (await deviceView(code)).rebootingUntil).toBeNull();
    app.signals.emit("SIGINT");
    await app.exit;
  });

  it("the session ended before the restart happened: the entry and the file go at once", async () => {
    let restarts = 0;
    const app = start(["--interface", "terminal"], async () => void (restarts += 1));
    const { code, technician } = await joined(app);
    await technician.timeout(5_000).emitWithAck("reboot:request", { code });
    await expect.poll(() => app.screen()).toContain("O : accepter");
    app.stdin.write("o");
    await expect.poll(() => restarts).toBe(1);
    expect(existsSync(linuxAutostartFile({ home, env: {} }))).toBe(true);
    expect((await as("technician", "post", `/api/sessions/${code}/disconnect`)).status).toBe(200);
    expect(await app.exit).toBe(0);
    expect(existsSync(linuxAutostartFile({ home, env: {} }))).toBe(false);
    expect(readdirSync(rebootResumeFolder("linux", {}, home))).toEqual([]);
  });

  it("a process resumed with a spent ticket removes the entry all the same and says why", async () => {
    let restarts = 0;
    const first = start(["--interface", "terminal"], async () => void (restarts += 1));
    const { code, technician } = await joined(first);
    await technician.timeout(5_000).emitWithAck("reboot:request", { code });
    await expect.poll(() => first.screen()).toContain("O : accepter");
    first.stdin.write("o");
    await expect.poll(() => restarts).toBe(1);
    first.signals.emit("SIGTERM");
    await first.exit;
    await database.db.execute(sql`update device_resume_tickets set expires_at = now() - interval '1 second'`);

    const second = start(entryCommand().slice(2));
    expect(await second.exit).toBe(1);
    expect(second.text()).toContain(ELEVATION_MESSAGES.ticketInvalid);
    expect(existsSync(linuxAutostartFile({ home, env: {} }))).toBe(false);
    expect(readdirSync(rebootResumeFolder("linux", {}, home))).toEqual([]);
  });
});

/** Every `reboot:news` of `socket`, as they come. */
function record(socket: TestSocket) {
  const news: { outcome: string; message: string }[] = [];
  socket.on("reboot:news", (update) => news.push(update));
  return news;
}
