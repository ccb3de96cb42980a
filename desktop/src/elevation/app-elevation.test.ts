/**
 * Issue 36 §4, « Past UAC », the whole app against the fake server with a fake elevation (the Win32 part is
 * `windows-elevation.test.ts`): a Windows app says it runs without administrator rights; the technician's request
 * shows « A » and its sentence; A gets a ticket, writes it to a private file and relaunches this program with
 * `--server` and `--reprendre <file>`; a refused UAC prompt deletes the file, tells the server and the customer,
 * and the session goes on; a started relaunch waits for `device:replaced` and exits without `device:leave`; the
 * relaunched process reads and deletes the file and rejoins with its ticket, consent and view not given; the
 * secure desktop is reported while captures fail with `SECURE_DESKTOP_REASON`, and no longer once one works.
 */
import { EventEmitter } from "node:events";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DeviceResumeBody } from "#app/remote-support/device-protocol.ts";
import { ELEVATION_MESSAGES } from "#app/remote-support/elevation-protocol.ts";
import { recordingInjector } from "../../test/fakes.ts";
import {
  type FakeServer,
  RESUME_TICKET,
  RESUMED_TOKEN,
  STATE,
  startFakeServer,
  TOKEN,
} from "../../test/fake-server.ts";
import { type AppDeps, runApp } from "../app.ts";
import type { PictureSource } from "../connection.ts";
import { makeImage } from "../capture/test-images.ts";
import { SECURE_DESKTOP_REASON } from "../capture/windows-capture.ts";
import { ELEVATION_TEXTS } from "../views/texts.ts";
import type { Elevation, RelaunchOutcome } from "./elevation.ts";
import { writeResumeFile } from "./resume-file.ts";

let server: FakeServer;
let temp: string;
beforeEach(async () => {
  server = await startFakeServer();
  temp = mkdtempSync(path.join(tmpdir(), "elevation-app-"));
});
afterEach(async () => {
  await server.close();
  rmSync(temp, { recursive: true, force: true });
});

/** A fake elevation: not elevated; `relaunch` records the command and answers `outcome`. */
function fakeElevation(outcome: () => RelaunchOutcome, elevated: boolean | undefined = false) {
  const commands: string[][] = [];
  const elevation: Elevation = {
    elevated,
    relaunch: async (command) => {
      commands.push([...command]);
      return outcome();
    },
  };
  return { elevation, commands };
}

/** A capture whose grabs fail with the secure desktop's reason while `secure.on`. */
function securePicture(secure: { on: boolean }): PictureSource {
  const image = makeImage(640, 480, [90, 90, 90]);
  return {
    capturer: {
      status: () => ({ ok: true }),
      grab: () => {
        if (secure.on) throw new Error(SECURE_DESKTOP_REASON);
        return image;
      },
      close: () => {},
    },
    encoder: { status: () => ({ ok: true }), encode: () => new Uint8Array(100).fill(7), close: () => {} },
  };
}

function start(args: string[], elevation: Elevation, picture?: PictureSource) {
  const out: string[] = [];
  const replaced = { count: 0 };
  const stdout = Object.assign(new PassThrough(), { isTTY: true, columns: 100 });
  stdout.on("data", (chunk: Buffer) => out.push(chunk.toString()));
  const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => stdin });
  const deps: AppDeps = {
    args,
    defaultServer: server.url,
    stdin,
    stdout,
    stderr: { write: (text: string) => out.push(text) },
    createInjector: async () => recordingInjector().injector,
    ...(picture ? { createPicture: async () => picture } : {}),
    columns: () => 100,
    signals: new EventEmitter() as unknown as AppDeps["signals"],
    platform: "win32",
    createElevation: async () => elevation,
    relaunchCommand: [String.raw`C:\atelier-assistance.exe`],
    onReplaced: () => (replaced.count += 1),
  };
  const exit = runApp(deps);
  const screen = () => out.join("").split("\x1b[H\x1b[2J").at(-1) ?? "";
  /** The last screen with its wrapped lines joined, to find a sentence. */
  const shown = () => screen().replace(/\s+/g, " ");
  return { exit, stdin, screen, shown, replaced, text: () => out.join("").replace(/\s+/g, " ") };
}

/** Pairs with the fake server's code and waits for the technician's state. */
async function paired(app: ReturnType<typeof start>) {
  await server.waitFor(() => server.statuses.length >= 1);
  server.socket()!.emit("device:state", { ...STATE, consent: false, controlActive: false });
  await server.waitFor(() => app.screen().includes("Julien, technicien de l'atelier, est connecté."));
}

describe("« Relancer en administrateur » in the app", () => {
  it("says it runs unelevated, offers A when asked, and goes on unelevated when the UAC prompt is refused", async () => {
    const fake = fakeElevation(() => ({ kind: "cancelled" }));
    const app = start(["--code", "ACDE-3479"], fake.elevation);
    await paired(app);
    expect(server.statuses[0]).toMatchObject({ elevated: false });
    expect(app.screen()).not.toContain("A : relancer");

    server.socket()!.emit("device:elevate");
    await server.waitFor(() => app.screen().includes("A : relancer le logiciel en administrateur"));
    expect(app.text()).toContain(ELEVATION_TEXTS.asked);
    expect(app.text()).toContain(ELEVATION_TEXTS.keys);

    app.stdin.write("a");
    await server.waitFor(() => server.elevationReports.length === 1);
    expect(server.ticketRequests).toBe(1);
    expect(server.elevationReports).toEqual([{ outcome: "cancelled" }]);
    const [command] = fake.commands;
    expect(command!.slice(0, 4)).toEqual([
      String.raw`C:\atelier-assistance.exe`,
      "--server",
      server.url,
      "--reprendre",
    ]);
    // The ticket travelled in the file, not on the command line; the file is gone now.
    expect(command!.join(" ")).not.toContain(RESUME_TICKET);
    expect(existsSync(command![4]!)).toBe(false);
    await server.waitFor(() => app.shown().includes(ELEVATION_TEXTS.cancelled));
    expect(app.screen()).not.toContain("A : relancer");

    app.stdin.write("\u0003");
    expect(await app.exit).toBe(0);
    expect(server.leaves).toBe(1);
  });

  it("relaunched, it waits to be replaced, then exits without leaving the session", async () => {
    const fake = fakeElevation(() => ({ kind: "started", running: () => true, release: () => {} }));
    const app = start([], fake.elevation);
    await server.waitFor(() => app.text().includes("Votre prénom"));
    app.stdin.write("Marie\n");
    await paired(app);
    server.socket()!.emit("device:elevate");
    await server.waitFor(() => app.screen().includes("A : relancer"));
    app.stdin.write("a");
    await server.waitFor(() => server.elevationReports.length === 1);
    expect(server.elevationReports).toEqual([{ outcome: "started" }]);
    const file = fake.commands[0]!.at(-1)!;
    // The new process reads it: the ticket and the session it is for.
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ ticket: RESUME_TICKET, sessionCode: "ACDEFG" });
    await server.waitFor(() => app.shown().includes(ELEVATION_TEXTS.started));

    server.socket()!.emit("device:replaced");
    expect(await app.exit).toBe(0);
    expect(server.leaves).toBe(0);
    expect(app.replaced.count).toBe(1);
    expect(app.text()).toContain(ELEVATION_TEXTS.replaced);
    rmSync(path.dirname(file), { recursive: true, force: true });
  });

  it("goes on here when the relaunched process exits before taking over", async () => {
    let alive = true;
    const fake = fakeElevation(() => ({ kind: "started", running: () => alive, release: () => {} }));
    const app = start(["--code", "ACDE-3479"], fake.elevation);
    await paired(app);
    server.socket()!.emit("device:elevate");
    await server.waitFor(() => app.screen().includes("A : relancer"));
    app.stdin.write("a");
    await server.waitFor(() => server.elevationReports.length === 1);
    const file = fake.commands[0]!.at(-1)!;
    alive = false;
    await server.waitFor(() => server.elevationReports.length === 2, 5_000);
    expect(server.elevationReports.at(-1)).toEqual({ outcome: "failed" });
    expect(existsSync(file)).toBe(false);
    await server.waitFor(() => app.shown().includes(ELEVATION_TEXTS.exited));
    app.stdin.write("\u0003");
    expect(await app.exit).toBe(0);
  });

  it("the relaunched process rejoins with the ticket of its file, view and control not allowed", async () => {
    server.tickets.add(RESUME_TICKET);
    const file = writeResumeFile({ ticket: RESUME_TICKET, sessionCode: "ACDEFG" }, temp);
    const app = start(["--reprendre", file], fakeElevation(() => ({ kind: "cancelled" }), true).elevation);
    await server.waitFor(() => server.connections.includes(RESUMED_TOKEN));
    expect(server.connections).not.toContain(TOKEN);
    const body = DeviceResumeBody.parse(server.resumeBodies[0]);
    expect(body).toMatchObject({ ticket: RESUME_TICKET, sessionCode: "ACDEFG", platform: "windows", elevated: true });
    expect(existsSync(path.dirname(file))).toBe(false);
    expect(app.text()).not.toContain("Votre prénom");
    await server.waitFor(() => server.statuses.length >= 1);
    expect(server.statuses[0]).toMatchObject({ elevated: true });
    expect(server.consents).toEqual([]);
    app.stdin.write("\u0003");
    expect(await app.exit).toBe(0);
  });

  it("a ticket refused by the server ends the relaunched process with the server's French sentence", async () => {
    const file = writeResumeFile({ ticket: RESUME_TICKET, sessionCode: "ACDEFG" }, temp);
    const app = start(["--reprendre", file], fakeElevation(() => ({ kind: "cancelled" }), true).elevation);
    expect(await app.exit).toBe(1);
    expect(app.text()).toContain(ELEVATION_MESSAGES.ticketInvalid);
    expect(server.connections).toEqual([]);
  });
});

describe("the secure desktop", () => {
  it("is reported while captures are refused, and no longer once the picture is back", async () => {
    const secure = { on: false };
    const app = start(
      ["--code", "ACDE-3479"],
      fakeElevation(() => ({ kind: "cancelled" })).elevation,
      securePicture(secure),
    );
    await paired(app);
    app.stdin.write("v");
    await server.waitFor(() => server.consents.some((consent) => consent.view === true));
    server.socket()!.emit("device:screen", { active: true, screen: null, refresh: 0 });
    await server.waitFor(() => server.frames.length > 0);
    secure.on = true;
    await server.waitFor(() => server.statuses.some((status) => status.secureDesktop === true));
    secure.on = false;
    server.socket()!.emit("device:ack", server.frames.at(-1)!.seq);
    await server.waitFor(() => server.statuses.at(-1)!.secureDesktop === undefined);
    expect(server.statuses.at(-1)).toMatchObject({ elevated: false, capture: { ok: true } });
    app.stdin.write("\u0003");
    expect(await app.exit).toBe(0);
  });
});
