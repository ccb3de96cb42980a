/**
 * Issue 26, the app as the one thing a customer runs, against the fake
 * server: run with no argument it starts a session without an account
 * (name optional), shows the code in large letters, asks for consent with
 * keys (V: see the screen, C: control), streams the picture only while the
 * server asks and the customer allowed it, and leaves on Ctrl+C with a last
 * screen that no longer explains how to stop or allow anything.
 */
import { EventEmitter } from "node:events";
import { PassThrough } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DeviceSessionBody } from "#app/remote-support/device-protocol.ts";
import { recordingInjector } from "../test/fakes.ts";
import { type FakeServer, STATE, startFakeServer } from "../test/fake-server.ts";
import { type AppDeps, readStartAnswer, runApp } from "./app.ts";
import type { PictureSource } from "./connection.ts";
import { makeImage } from "./capture/test-images.ts";
import { CODE_INVALID_MESSAGE, CODE_MISSING_MESSAGE } from "./start-answer.ts";

let server: FakeServer;
beforeEach(async () => {
  server = await startFakeServer();
});
afterEach(async () => {
  await server.close();
});

/** A capture of one still grey screen and an encoder giving 100 bytes per rectangle. */
function fakePicture(): PictureSource {
  const image = makeImage(1920, 1080, [90, 90, 90]);
  return {
    capturer: { status: () => ({ ok: true }), grab: () => image, close: () => {} },
    encoder: { status: () => ({ ok: true }), encode: () => new Uint8Array(100).fill(7), close: () => {} },
  };
}

function start(args: string[], columns = 80) {
  const out: string[] = [];
  // A terminal: readline and the view both see a TTY.
  const stdout = Object.assign(new PassThrough(), { isTTY: true, columns });
  stdout.on("data", (chunk: Buffer) => out.push(chunk.toString()));
  const signals = new EventEmitter();
  const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => stdin });
  const fake = recordingInjector();
  const deps: AppDeps = {
    args,
    defaultServer: server.url,
    stdin,
    stdout,
    stderr: { write: (text: string) => out.push(text) },
    createInjector: async () => fake.injector,
    createPicture: async () => fakePicture(),
    columns: () => columns,
    signals: signals as unknown as AppDeps["signals"],
    platform: "linux",
    programName: "atelier-assistance-0.1.0-linux-x64",
  };
  const exit = runApp(deps);
  /** The last screen drawn (the view clears the terminal before each). */
  const screen = () => out.join("").split("\x1b[H\x1b[2J").at(-1) ?? "";
  return { exit, out, stdin, signals, screen, text: () => out.join("").replace(/\s+/g, " ") };
}

describe("the app started with no argument", () => {
  it("starts a session without an account and shows its code in large letters", async () => {
    const app = start([]);
    await server.waitFor(() => app.text().includes("Votre prénom : "));
    app.stdin.write("Marie\n");
    await server.waitFor(() => server.statuses.length === 1);
    const body = DeviceSessionBody.parse(server.sessionBodies[0]);
    expect(body).toMatchObject({ customerName: "Marie", platform: "linux", capture: { ok: true } });
    expect(server.pairBodies).toEqual([]);
    server.socket()!.emit("device:state", { ...STATE, technicianName: null, consent: false, controlActive: false });
    await server.waitFor(() => app.screen().includes("Donnez ce code au technicien"));
    expect(app.screen()).toContain("Code de session : ACD EFG");
    // The first letter, A, in the 5 × 5 font, on the first row of the big code.
    expect(app.screen()).toMatch(/^ {2} ### /m);
    for (const line of app.screen().split("\n")) expect(line.length).toBeLessThan(80);

    // The technician joined: the code gives way to who is there, and nothing is seen yet.
    server.socket()!.emit("device:state", { ...STATE, consent: false, controlActive: false });
    await server.waitFor(() => app.screen().includes("Julien, technicien de l'atelier, est connecté."));
    expect(app.screen()).not.toContain("Donnez ce code");
    expect(app.screen()).toContain("Écran : le technicien ne le voit pas.");
    expect(app.screen()).toContain("V : autoriser le technicien à voir l'écran.");
    app.stdin.write("\u0003");
    expect(await app.exit).toBe(0);
  });

  it("V allows the picture, which flows only while the server asks; C allows control; Ctrl+C leaves", async () => {
    const app = start([]);
    await server.waitFor(() => app.text().includes("Votre prénom"));
    app.stdin.write("\n");
    await server.waitFor(() => server.statuses.length === 1);
    expect(DeviceSessionBody.parse(server.sessionBodies[0]).customerName).toBeUndefined();
    const socket = server.socket()!;
    socket.emit("device:state", { ...STATE, consent: false, controlActive: false });
    // The server already asks, but the customer has not allowed it here: nothing is sent.
    socket.emit("device:screen", { active: true, screen: null, refresh: 0 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(server.frames).toEqual([]);

    app.stdin.write("v");
    await server.waitFor(() => server.consents.some((consent) => consent.view === true));
    await server
      .waitFor(() => server.frames.length > 0)
      .catch((e) => {
        console.log("SCREEN", app.screen());
        throw e;
      });
    expect(server.frames[0]).toMatchObject({ seq: 1, full: true, width: 1920, height: 1080, screen: "main" });
    // Two frames unacknowledged at most: the still screen sends nothing more until the technician catches up.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const sent = server.frames.length;
    expect(sent).toBeLessThanOrEqual(2);
    await server
      .waitFor(() => app.screen().includes("Julien, technicien, voit votre écran."))
      .catch((e) => {
        console.log(app.screen());
        throw e;
      });

    app.stdin.write("c");
    await server.waitFor(() => server.consents.some((consent) => consent.allowed === true));
    socket.emit("device:state", { ...STATE, viewConsent: true });
    await server.waitFor(() => app.screen().includes("contrôle votre souris et votre clavier"));

    app.stdin.write("v");
    await server.waitFor(() => server.consents.some((consent) => consent.view === false));
    app.stdin.write("\u0003");
    expect(await app.exit).toBe(0);
    await server.waitFor(() => server.leaves === 1);
    const last = app.screen();
    expect(last).toContain("Arrêté");
    expect(last).not.toContain("Pour arrêter");
    expect(last).not.toMatch(/^[VCR] : /m);
  });

  it("--help names the file the customer launched", async () => {
    const app = start(["--help"]);
    expect(await app.exit).toBe(0);
    expect(app.text()).toContain("atelier-assistance-0.1.0-linux-x64 --code CODE");
    expect(app.text()).not.toMatch(/ assistance \[/);
  });
});

describe("the first prompt's answer", () => {
  it("tells a pairing code from a first name", () => {
    expect(readStartAnswer("acde-3479")).toEqual({ kind: "code", code: "ACDE3479" });
    expect(readStartAnswer(" ACDE 3479 ")).toEqual({ kind: "code", code: "ACDE3479" });
    expect(readStartAnswer("")).toEqual({ kind: "name", name: null });
    expect(readStartAnswer("Marie-Hélène")).toEqual({ kind: "name", name: "Marie-Hélène" });
    // Eight symbols of the alphabet but no digit: a name, not a code (issue 40: every code issued holds a digit).
    expect(readStartAnswer("MARGUERY")).toEqual({ kind: "name", name: "MARGUERY" });
    expect(readStartAnswer("Jean-Marc")).toEqual({ kind: "name", name: "Jean-Marc" });
    expect(readStartAnswer("BBBB-0000")).toMatchObject({ kind: "invalid" });
    expect(readStartAnswer("x".repeat(81))).toMatchObject({ kind: "invalid" });
  });

  it("reads the pairing code's own field as a code, never as a name (issue 40)", () => {
    expect(readStartAnswer(" acde 3479 ", "code")).toEqual({ kind: "code", code: "ACDE3479" });
    expect(readStartAnswer("Marie", "code")).toEqual({ kind: "invalid", message: CODE_INVALID_MESSAGE });
    expect(readStartAnswer("", "code")).toEqual({ kind: "invalid", message: CODE_MISSING_MESSAGE });
  });
});
