/**
 * Issue 38 §2 « Files both ways, with consent », in the real window (Xvfb, WebKitGTK 6, the window process run by
 * Bun) driven by real clicks (xdotool), the app against the fake server, HOME a temporary folder (its Downloads):
 * the « fichiers » permission and the file asked in the window and accepted by clicks, the progress bar with
 * « Arrêter l'assistance » still in view, the file saved (« Enregistré dans Downloads : facture.pdf »), then
 * « Envoyer un fichier au technicien » opening zenity's file chooser, where the path typed is sent. Screenshots go
 * to `test-results/desktop-window/`. Fails, never skips, when Xvfb, xdotool, zenity or WebKitGTK is missing.
 */
import { createHash, randomUUID } from "node:crypto";
import { EventEmitter } from "node:events";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it, type TestContext } from "vitest";
import { FILE_LIMITS, type FileMessage } from "#app/remote-support/file-protocol.ts";
import { recordingInjector } from "../../test/fakes.ts";
import { type FakeServer, STATE, startFakeServer } from "../../test/fake-server.ts";
import { screenshot } from "../../test/screenshot.ts";
import { clickAt, findWindow, typeInto, windowOrigin } from "../../test/x-windows.ts";
import { startXvfb, type Xvfb } from "../../test/xvfb.ts";
import { type AppDeps, runApp } from "../app.ts";
import { windowCommand } from "../launcher.ts";
import { type ChooseContext, openView } from "../views/choose.ts";
import { WindowAppView } from "../views/window.ts";
import { WINDOW_FLAG, type WindowEvent } from "../views/window-state.ts";
import { APP_NAME } from "../version.ts";
import { CHOOSER_TITLE } from "./chooser.ts";

const ARTIFACTS = path.resolve(import.meta.dirname, "../../../test-results/desktop-window");
const MAIN = path.resolve(import.meta.dirname, "../main.ts");
const SCREEN = { width: 800, height: 700 };
type Drawn = Extract<WindowEvent, { type: "drawn" }>;

let display: Xvfb;
let server: FakeServer;
let home: string;
const saved = { HOME: process.env.HOME, DISPLAY: process.env.DISPLAY };
beforeAll(async () => {
  display = await startXvfb(SCREEN.width, SCREEN.height);
  server = await startFakeServer();
  home = mkdtempSync(path.join(os.tmpdir(), "maison-"));
  // The app runs in this process: its Downloads folder is HOME's, its chooser (zenity) opens on DISPLAY.
  Object.assign(process.env, { HOME: home, DISPLAY: display.display });
});
afterAll(async () => {
  for (const [name, value] of Object.entries(saved))
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  await server?.close();
  await display?.stop();
  rmSync(home, { recursive: true, force: true });
});

async function shoot(context: TestContext, name: string): Promise<void> {
  const file = await screenshot(display.display, SCREEN.width, SCREEN.height, path.join(ARTIFACTS, `${name}.png`));
  await context.annotate(`capture d'écran : ${name}`, { path: file, contentType: "image/png" });
}

const heard = <T extends FileMessage["type"]>(type: T) =>
  server.files.filter((message) => message.type === type) as Extract<FileMessage, { type: T }>[];

describe("files in the window", () => {
  it(
    "asks and saves a file by clicks, shows its progress, sends one picked in zenity's chooser",
    {
      timeout: 150_000,
    },
    async (context) => {
      const environment = { ...process.env, DISPLAY: display.display, WAYLAND_DISPLAY: "" };
      const stdin = Object.assign(new PassThrough(), { isTTY: false });
      const out: string[] = [];
      const stdout = { write: (text: string) => out.push(text) };
      const events: WindowEvent[] = [];
      const choose: ChooseContext = {
        platform: "linux",
        env: environment,
        windowCommand: windowCommand(
          { execPath: process.execPath, argv: ["node", MAIN], env: environment },
          MAIN,
          WINDOW_FLAG,
        ),
        stdin,
        stdout,
        stderr: stdout,
      };
      const signals = new EventEmitter();
      const deps: AppDeps = {
        args: ["--interface", "fenetre", "--code", "ACDE-3479"],
        defaultServer: server.url,
        stdin,
        stdout,
        stderr: stdout,
        createInjector: async () => recordingInjector().injector,
        signals: signals as unknown as AppDeps["signals"],
        platform: "linux",
        openView: async (forced, hooks) => {
          const view = await openView(forced, choose, hooks);
          if (view instanceof WindowAppView) view.onEvent((event) => events.push(event));
          return view;
        },
      };
      const exit = runApp(deps);
      const drawn = (test: (event: Drawn) => boolean) =>
        server.waitFor(() => events.findLast((event) => event.type === "drawn" && test(event)) as Drawn, 30_000);
      const window = await findWindow(display.display, APP_NAME);
      const click = async (event: Drawn, action: string) => {
        const button = [...event.buttons, ...(event.files ?? [])].find((candidate) => candidate.action === action)!;
        const origin = await windowOrigin(display.display, window);
        await clickAt(display.display, origin.x + button.x + button.width / 2, origin.y + button.y + button.height / 2);
      };
      const has = (action: string) => (event: Drawn) => (event.files ?? []).some((button) => button.action === action);
      try {
        await server.waitFor(() => server.statuses.length === 1, 30_000);
        server.socket()!.emit("device:state", { ...STATE, consent: false, controlActive: false });

        // The technician sends « facture.pdf »: first the permission, then the file, each accepted by a click.
        const bytes = Uint8Array.from({ length: 4 * FILE_LIMITS.chunkBytes + 17 }, (_, i) => (i * 13) % 256);
        const transferId = randomUUID();
        server.socket()!.emit("device:file", {
          type: "offer",
          transferId,
          name: "facture.pdf",
          size: bytes.length,
          from: "Julien",
        });
        await click(await drawn(has("fileAccept")), "fileAccept");
        // The same button, now « Accepter » for the file itself (the permission's question is gone).
        await server.waitFor(
          () => events.filter((event) => event.type === "drawn" && has("fileAccept")(event)).length > 1,
        );
        await new Promise((resolve) => setTimeout(resolve, 300));
        await shoot(context, "fichiers-1-question");
        await click(await drawn(has("fileAccept")), "fileAccept");
        await server.waitFor(() => heard("answer")[0], 15_000);
        expect(heard("answer")[0]).toMatchObject({ transferId, accept: true, offset: 0 });

        // Two chunks: the bar shows, « Annuler » beside it, « Arrêter l'assistance » still inside the window.
        for (const offset of [0, FILE_LIMITS.chunkBytes])
          server.socket()!.emit("device:file", {
            type: "chunk",
            transferId,
            offset,
            data: bytes.subarray(offset, offset + FILE_LIMITS.chunkBytes),
          });
        await server.waitFor(() => heard("ack").some((ack) => ack.received === 2 * FILE_LIMITS.chunkBytes), 15_000);
        await new Promise((resolve) => setTimeout(resolve, 400));
        const running = await drawn(has("fileCancel"));
        const stop = running.buttons.find((button) => button.action === "stop")!;
        expect(stop.y + stop.height).toBeLessThanOrEqual(600);
        await shoot(context, "fichiers-2-progression");
        for (let offset = 2 * FILE_LIMITS.chunkBytes; offset < bytes.length; offset += FILE_LIMITS.chunkBytes)
          server.socket()!.emit("device:file", {
            type: "chunk",
            transferId,
            offset,
            data: bytes.subarray(offset, offset + FILE_LIMITS.chunkBytes),
          });
        await server.waitFor(() => heard("ack").some((ack) => ack.received === bytes.length), 15_000);
        server.socket()!.emit("device:file", {
          type: "end",
          transferId,
          sha256: createHash("sha256").update(bytes).digest("hex"),
        });
        await server.waitFor(() => heard("done")[0], 15_000);
        const saved = path.join(home, "Downloads", "facture.pdf");
        expect(Buffer.from(readFileSync(saved)).equals(Buffer.from(bytes))).toBe(true);
        const done = await drawn(has("fileOpen"));
        await shoot(context, "fichiers-3-enregistre");

        // « Envoyer un fichier au technicien »: zenity's chooser; the path typed there is offered.
        const mine = path.join(home, "devis.pdf");
        writeFileSync(mine, "%PDF-1.4 devis");
        await click(done, "fileSend");
        const chooser = await findWindow(display.display, CHOOSER_TITLE);
        await shoot(context, "fichiers-4-choix");
        // A « / » typed opens the chooser's location field: the path, then Entrée.
        await typeInto(display.display, chooser, mine);
        await new Promise((resolve) => setTimeout(resolve, 500));
        await shoot(context, "fichiers-5-chemin");
        await typeInto(display.display, chooser, "", "Return");
        expect(await server.waitFor(() => heard("offer")[0], 20_000)).toEqual({
          type: "offer",
          name: "devis.pdf",
          size: 14,
        });
      } finally {
        signals.emit("SIGTERM");
        await Promise.race([exit, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      }
      expect(await exit).toBe(0);
    },
  );
});
