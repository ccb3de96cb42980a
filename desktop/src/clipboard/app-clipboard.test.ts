/**
 * Issue 27, copy–paste in the whole app against the fake server, with a fake OS clipboard and a recording
 * injector: key P sends the clipboard's text only while control is allowed (and the terminal lists P only
 * then), a text over 64 KB is not sent, and the technician's text goes on the clipboard and is pasted with
 * Ctrl+V (⌘V on macOS) only while control is allowed.
 */
import { EventEmitter } from "node:events";
import { PassThrough } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CLIPBOARD_MAX_BYTES, CLIPBOARD_MESSAGES, type ClipboardAck } from "#app/remote-support/clipboard-protocol.ts";
import { recordingInjector } from "../../test/fakes.ts";
import { type FakeServer, STATE, startFakeServer } from "../../test/fake-server.ts";
import { type AppDeps, runApp } from "../app.ts";
import { ClipboardError, type Clipboard } from "./clipboard.ts";

const TEXT = "Œuvre « test » — 123 €";
const PASTE_HINT = "P : envoyer au technicien le texte copié (presse-papiers).";

let server: FakeServer;
beforeEach(async () => {
  server = await startFakeServer();
});
afterEach(async () => {
  await server.close();
});

/** A clipboard in memory: `content` is what the customer copied (null: nothing). */
function fakeClipboard() {
  const fake = { content: null as string | null, writes: [] as string[], closed: false };
  const clipboard: Clipboard = {
    readText: async () => {
      if (fake.content === null) throw new ClipboardError(CLIPBOARD_MESSAGES.empty);
      return fake.content;
    },
    writeText: async (text) => {
      fake.writes.push(text);
      fake.content = text;
    },
    close: () => void (fake.closed = true),
  };
  return { fake, clipboard };
}

/** Runs the app on a pipe (keys a line at a time) and starts a session; resolves once the link is up. */
async function start(platform: NodeJS.Platform = "linux") {
  const out: string[] = [];
  const stdout = Object.assign(new PassThrough(), { isTTY: true, columns: 100 });
  stdout.on("data", (chunk: Buffer) => out.push(chunk.toString()));
  const stdin = new PassThrough();
  const injector = recordingInjector();
  const { fake, clipboard } = fakeClipboard();
  const deps: AppDeps = {
    args: [],
    defaultServer: server.url,
    stdin,
    stdout,
    stderr: { write: (text: string) => out.push(text) },
    createInjector: async () => injector.injector,
    createClipboard: () => clipboard,
    signals: new EventEmitter() as unknown as AppDeps["signals"],
    platform,
    columns: () => 120,
  };
  const exit = runApp(deps);
  /** The last screen drawn, its lines joined by spaces (a long notice wraps). */
  const screen = () => (out.join("").split("\x1b[H\x1b[2J").at(-1) ?? "").replace(/\s+/g, " ");
  await server.waitFor(() => out.join("").includes("Votre prénom"));
  stdin.write("Marie\n");
  await server.waitFor(() => server.statuses.length === 1);
  const socket = server.socket()!;
  const sent: unknown[] = [];
  socket.on("device:clipboard", (payload: unknown, ack: (result: ClipboardAck) => void) => {
    sent.push(payload);
    ack({ ok: true });
  });
  return { exit, stdin, screen, socket, sent, fake, calls: injector.calls };
}

describe("copy–paste in the app", () => {
  it("P sends the copied text only while control is allowed; a text over 64 KB is not sent", async () => {
    const app = await start();
    app.socket.emit("device:state", { ...STATE, controlActive: false });
    await server.waitFor(() => app.screen().includes("Julien, technicien de l'atelier, est connecté."));
    expect(app.screen()).not.toContain(PASTE_HINT);
    app.fake.content = TEXT;
    app.stdin.write("p\n");
    await server.waitFor(() => app.screen().includes(CLIPBOARD_MESSAGES.notAllowed));

    app.socket.emit("device:state", STATE);
    await server.waitFor(() => app.screen().includes(PASTE_HINT));
    app.stdin.write("p\n");
    await server.waitFor(() => app.screen().includes("Presse-papiers envoyé au technicien (22 caractères)."));
    expect(app.sent).toEqual([{ text: TEXT }]);
    // The terminal never shows the text itself.
    expect(app.screen()).not.toContain("Œuvre");

    app.fake.content = "é".repeat(CLIPBOARD_MAX_BYTES / 2) + "a";
    app.stdin.write("p\n");
    await server.waitFor(() => app.screen().includes("Le texte dépasse 64 Ko : il n'a pas été envoyé."));
    app.fake.content = null;
    app.stdin.write("p\n");
    await server.waitFor(() => app.screen().includes(CLIPBOARD_MESSAGES.empty));
    expect(app.sent).toHaveLength(1);

    // The customer takes control back (R): P is refused again and no longer listed.
    app.fake.content = TEXT;
    app.stdin.write("r\n");
    await server.waitFor(() => !app.screen().includes(PASTE_HINT));
    app.stdin.write("p\n");
    await server.waitFor(() => app.screen().includes(CLIPBOARD_MESSAGES.notAllowed));
    expect(app.sent).toHaveLength(1);
    app.stdin.write("\u0003\n");
    expect(await app.exit).toBe(0);
    expect(app.fake.closed).toBe(true);
  });

  it("puts the technician's text on the clipboard and presses Ctrl+V, only while control is allowed", async () => {
    const app = await start();
    app.socket.emit("device:state", STATE);
    await server.waitFor(() => app.screen().includes(PASTE_HINT));
    app.socket.emit("device:clipboard", { text: TEXT });
    await server.waitFor(() => app.screen().includes("Le technicien a collé un texte de son presse-papiers"));
    expect(app.fake.writes).toEqual([TEXT]);
    expect(app.calls.filter(([kind]) => kind === "key")).toEqual([
      ["key", "ControlLeft", true],
      ["key", "KeyV", true],
      ["key", "KeyV", false],
      ["key", "ControlLeft", false],
    ]);

    // Control no longer active: nothing is written nor pasted.
    app.socket.emit("device:state", { ...STATE, controlActive: false });
    await server.waitFor(() => !app.screen().includes(PASTE_HINT));
    app.socket.emit("device:clipboard", { text: "autre texte" });
    // Then a state change proves the app handled what came before it.
    app.socket.emit("device:state", { ...STATE, controlActive: false, technicianName: "Julie" });
    await server.waitFor(() => app.screen().includes("Julie, technicien de l'atelier, est connecté."));
    expect(app.fake.writes).toEqual([TEXT]);
    app.stdin.write("\u0003\n");
    expect(await app.exit).toBe(0);
  });

  it("pastes with ⌘V on macOS", async () => {
    const app = await start("darwin");
    app.socket.emit("device:state", STATE);
    await server.waitFor(() => app.screen().includes(PASTE_HINT));
    app.socket.emit("device:clipboard", { text: TEXT });
    await server.waitFor(() => app.fake.writes.length === 1 && app.calls.length >= 4);
    await server.waitFor(() => app.calls.filter(([kind]) => kind === "key").length === 4);
    expect(app.calls.filter(([kind]) => kind === "key").map(([, code, down]) => `${code as string}:${down}`)).toEqual([
      "MetaLeft:true",
      "KeyV:true",
      "KeyV:false",
      "MetaLeft:false",
    ]);
    app.stdin.write("\u0003\n");
    expect(await app.exit).toBe(0);
  });
});
