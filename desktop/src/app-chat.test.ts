/**
 * Issue 38 §1, the chat in the terminal, end to end against the fake server (stdin a pipe: a line at a time):
 * before a technician joins the screen says why nothing can be written and M is not offered; then the
 * technician's message is in the redrawn screen with the bell, M + a line answers it (its letters are not read as
 * keys), a refusal is said in French; and `renderScreen` wraps and bounds the messages it shows.
 */
import { EventEmitter } from "node:events";
import { PassThrough } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CHAT_MESSAGES, type ChatLine } from "#app/remote-support/chat-protocol.ts";
import { recordingInjector } from "../test/fakes.ts";
import { type FakeServer, STATE, startFakeServer } from "../test/fake-server.ts";
import { type AppDeps, runApp } from "./app.ts";
import { renderScreen, type ScreenModel } from "./ui.ts";

const KEY_M = "M : écrire un message au technicien (Entrée pour l'envoyer).";
const AT = "2026-12-01T13:05:00.000Z";
const line = (id: string, text: string): ChatLine => ({ id, from: "technician", name: "Julien", text, at: AT });

let server: FakeServer;
beforeEach(async () => {
  server = await startFakeServer();
});
afterEach(async () => {
  await server.close();
});

async function start() {
  const out: string[] = [];
  const stdout = Object.assign(new PassThrough(), { isTTY: true });
  stdout.on("data", (chunk: Buffer) => out.push(chunk.toString()));
  const stdin = new PassThrough();
  const injector = recordingInjector();
  const deps: AppDeps = {
    args: [],
    defaultServer: server.url,
    stdin,
    stdout,
    stderr: { write: (text: string) => out.push(text) },
    createInjector: async () => injector.injector,
    signals: new EventEmitter() as unknown as AppDeps["signals"],
    platform: "linux",
    columns: () => 100,
  };
  const exit = runApp(deps);
  const screen = () => (out.join("").split("\x1b[H\x1b[2J").at(-1) ?? "").replace(/\s+/g, " ");
  await server.waitFor(() => out.join("").includes("Votre prénom"));
  stdin.write("Marie\n");
  await server.waitFor(() => server.statuses.length === 1);
  return { exit, stdin, screen, out, socket: server.socket()! };
}

describe("the chat in the terminal", () => {
  it("shows the technician's message with the bell and answers it with M and a line", async () => {
    const app = await start();
    app.socket.emit("device:state", { ...STATE, technicianName: null, controlActive: false });
    await server.waitFor(() => app.screen().includes(CHAT_MESSAGES.notConnected));
    expect(app.screen()).not.toContain(KEY_M);
    // M is not offered: it starts no message (the next line is read as keys, as before issue 38).
    app.stdin.write("m\n");
    app.socket.emit("device:state", STATE);
    await server.waitFor(() => app.screen().includes(KEY_M));
    expect(server.chats).toEqual([]);

    app.socket.emit("device:chat", line("t1", "Bonjour Marie, je regarde votre imprimante."));
    await server.waitFor(() => app.screen().includes("Julien (technicien)"));
    expect(app.screen()).toMatch(
      /Messages : Julien \(technicien\) \d\d:\d\d : Bonjour Marie, je regarde votre imprimante\./u,
    );
    expect(app.out.join("")).toContain("\u0007");

    app.stdin.write("m\n");
    await server.waitFor(() => app.screen().includes("Votre message (Entrée : envoyer"));
    expect(app.screen()).not.toContain(KEY_M);
    // « Merci » holds an R and a C: written into the message, not read as keys.
    app.stdin.write("Merci, c'est rapide\n");
    await server.waitFor(() => app.screen().includes("Vous "));
    expect(server.chats).toEqual([{ text: "Merci, c'est rapide" }]);
    expect(app.screen()).toMatch(/Vous \d\d:\d\d : Merci, c'est rapide/u);
    expect(app.screen()).not.toContain("Votre message (Entrée");
    expect(server.consents).toEqual([]);

    server.chatAnswer = () => ({ ok: false, message: "Trop de messages : patientez un instant." });
    app.stdin.write("m\nEncore un\n");
    await server.waitFor(() => app.screen().includes("⚠ Trop de messages : patientez un instant."));
    app.stdin.write("\u0003\n");
    expect(await app.exit).toBe(0);
  });
});

describe("the terminal's screen with messages", () => {
  const model: ScreenModel = {
    server: "https://atelier.example",
    computerName: "PC-SALON",
    phase: "connected",
    customerName: "Marie",
    state: STATE,
    injection: { ok: true },
    withdrawnHere: false,
    notices: [],
    keys: true,
    columns: 60,
    chat: { lines: [], available: true, sending: false, error: null },
  };

  it("wraps the last messages to the width, newest kept, and strips control characters", () => {
    const lines = Array.from({ length: 8 }, (_, index) => line(`l${index}`, `Message ${index} ${"mot ".repeat(20)}`));
    const text = renderScreen({
      ...model,
      chat: { ...model.chat!, lines: [...lines, line("x", "Fin\u009b2J\nsuite")] },
    });
    for (const row of text.split("\n")) expect(row.length).toBeLessThanOrEqual(60);
    expect(text).toContain("Fin2J");
    expect(text).toContain("    suite");
    expect(text).not.toContain("\u009b");
    expect(text).toContain("Message 7");
    expect(text).not.toContain("Message 0");
    expect(text).toContain(KEY_M.slice(0, 20));
  });

  it("shows the line being typed instead of the M key", () => {
    const text = renderScreen({ ...model, chatDraft: "Bonjour" });
    expect(text).toContain("> Bonjour_");
    expect(text).not.toContain("M : écrire");
  });
});
