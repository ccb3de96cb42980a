/**
 * The app end to end against a fake server (issue 15): pairing, the /device
 * link, input injection, releases on every stop path, reconnection, the
 * terminal view and the exit codes. The injector is a recording fake.
 */
import { EventEmitter } from "node:events";
import os from "node:os";
import { PassThrough } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEVICE_MESSAGES, DevicePairBody, type InputEvent } from "#app/remote-support/device-protocol.ts";
import { type Call, recordingInjector } from "../test/fakes.ts";
import { type FakeServer, STATE, startFakeServer } from "../test/fake-server.ts";
import { type AppDeps, runApp } from "./app.ts";
import { defaultSocketFactory } from "./connection.ts";

let server: FakeServer;
beforeEach(async () => {
  server = await startFakeServer();
});
afterEach(async () => {
  await server.close();
});

function start(args: string[], options: { tty?: boolean; token?: string } = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const signals = new EventEmitter();
  const stdin = Object.assign(new PassThrough(), options.tty ? { isTTY: true, setRawMode: () => stdin } : {});
  const fake = recordingInjector();
  const deps: AppDeps = {
    args,
    defaultServer: server.url,
    stdin,
    stdout: { write: (text: string) => out.push(text) },
    stderr: { write: (text: string) => err.push(text) },
    createInjector: async () => fake.injector,
    signals: signals as unknown as AppDeps["signals"],
    platform: "linux",
    socketFactory: options.token ? (origin) => () => defaultSocketFactory(origin)(options.token!) : undefined,
  };
  const exit = runApp(deps);
  // The view wraps lines to the terminal's width: read it as one line of words.
  const text = () => out.join("").replace(/\s+/g, " ");
  return { exit, out, err, signals, stdin, calls: fake.calls, injector: fake.injector, text };
}

const has = (calls: Call[], ...call: Call) => calls.some((c) => JSON.stringify(c) === JSON.stringify(call));

describe("desktop app against a fake server", () => {
  it("pairs, injects while control is active, releases on release, drop and stop, and exits 0", async () => {
    const app = start(["--code", "acde-3479"]);
    await server.waitFor(() => server.statuses.length === 1);
    // The pairing body follows the protocol and describes this computer.
    const body = DevicePairBody.parse(server.pairBodies[0]);
    expect(body).toMatchObject({ pairingCode: "ACDE3479", computerName: os.hostname(), platform: "linux" });
    expect(body.injection).toEqual({ ok: true });
    expect(server.connections).toEqual(["device-token-1"]);

    const socket = server.socket()!;
    socket.emit("device:state", STATE);
    // A malformed event (last) is dropped by the app's own validation.
    socket.emit("device:input", {
      screen: null,
      events: [
        { t: "move", x: 0.5, y: 0.5 },
        { t: "button", button: 0, down: true },
        { t: "key", code: "ControlLeft", down: true },
        { t: "key", code: "KeyC", down: true },
        { t: "text", text: "é" },
        { t: "bogus" } as unknown as InputEvent,
      ],
    });
    await server.waitFor(() => has(app.calls, "text", "é"));
    expect(app.calls).toEqual([
      ["move", 960, 540],
      ["button", 0, true],
      ["key", "ControlLeft", true],
      ["key", "KeyC", true],
      ["text", "é"],
    ]);
    expect(app.text()).toContain("Marie Dupont");
    expect(app.text()).toContain("Julien, technicien de l'atelier, est connecté.");
    expect(app.text()).toContain("AUTORISÉ et ACTIF");
    expect(app.text()).toContain("Ctrl+C");

    app.calls.length = 0;
    socket.emit("device:release");
    await server.waitFor(() => app.calls.length === 3);
    expect(app.calls).toEqual([
      ["key", "KeyC", false],
      ["key", "ControlLeft", false],
      ["button", 0, false],
    ]);

    // The connection drops with a button held: released at once, then the app reconnects and reports again.
    socket.emit("device:input", { screen: null, events: [{ t: "button", button: 2, down: true }] });
    await server.waitFor(() => has(app.calls, "button", 2, true));
    socket.conn.close();
    await server.waitFor(() => has(app.calls, "button", 2, false));
    await server.waitFor(() => server.statuses.length === 2, 8_000);
    expect(server.connections).toHaveLength(2);

    // SIGTERM: the app leaves (the server unpairs it, consent with it), everything released, exit 0.
    server.socket()!.emit("device:state", STATE);
    server.socket()!.emit("device:input", { screen: null, events: [{ t: "key", code: "ShiftLeft", down: true }] });
    await server.waitFor(() => has(app.calls, "key", "ShiftLeft", true));
    app.signals.emit("SIGTERM");
    expect(await app.exit).toBe(0);
    await server.waitFor(() => server.leaves > 0);
    expect(server.consents).toEqual([]);
    expect(app.calls.slice(-2)).toEqual([["key", "ShiftLeft", false], ["close"]]);
    expect(app.injector.held.isEmpty()).toBe(true);
    expect(app.text()).toMatch(/Arrêt demandé/);
  }, 20_000);

  it("ignores input while control is not active", async () => {
    const app = start(["--code", "ACDE3479"]);
    await server.waitFor(() => server.statuses.length === 1);
    const socket = server.socket()!;
    socket.emit("device:state", { ...STATE, consent: false, controlActive: false });
    socket.emit("device:input", { screen: null, events: [{ t: "key", code: "KeyA", down: true }] });
    await server.waitFor(() => app.text().includes("non autorisé"));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(app.calls).toEqual([]);
    expect(app.text()).toContain("appuyez sur C pour l'autoriser");
    app.signals.emit("SIGINT");
    expect(await app.exit).toBe(0);
  });

  it("exits when the session ends, printing the server's message", async () => {
    const app = start(["--code", "ACDE3479"]);
    await server.waitFor(() => server.statuses.length === 1);
    const socket = server.socket()!;
    socket.emit("device:state", STATE);
    socket.emit("device:input", { screen: null, events: [{ t: "button", button: 1, down: true }] });
    await server.waitFor(() => has(app.calls, "button", 1, true));
    socket.emit("device:ended", DEVICE_MESSAGES.sessionEnded);
    expect(await app.exit).toBe(0);
    expect(app.text()).toContain(DEVICE_MESSAGES.sessionEnded);
    expect(app.calls.slice(-2)).toEqual([["button", 1, false], ["close"]]);
  });

  it("takes a pairing code typed at the prompt, and asks again after a refusal", async () => {
    const app = start([]);
    app.stdin.write("BBBB-0000\n");
    await server.waitFor(() => app.text().includes("n'est pas valide"));
    app.stdin.write("ACDE-3479\n");
    await server.waitFor(() => server.statuses.length === 1);
    // Issue 40: the question asks the first name; the pairing code is offered on a line of its own.
    expect(app.text()).toContain("Votre prénom : ");
    expect(app.text()).toContain("Vous avez un code d'appairage");
    expect(server.sessionBodies).toEqual([]);
    app.signals.emit("SIGHUP");
    expect(await app.exit).toBe(0);
  });

  it("R withdraws control from the terminal; Ctrl+C stops", async () => {
    const app = start(["--code", "ACDE3479"], { tty: true });
    await server.waitFor(() => server.statuses.length === 1);
    const socket = server.socket()!;
    socket.emit("device:state", STATE);
    await server.waitFor(() => app.text().includes("R : reprendre la main"));
    socket.emit("device:input", { screen: null, events: [{ t: "key", code: "AltLeft", down: true }] });
    await server.waitFor(() => has(app.calls, "key", "AltLeft", true));
    app.stdin.write("r");
    await server.waitFor(() => server.consents.length === 1);
    await server.waitFor(() => has(app.calls, "key", "AltLeft", false));
    // A state sent before the server saw the withdrawal (consent still true) does not undo it.
    socket.emit("device:state", STATE);
    socket.emit("device:input", { screen: null, events: [{ t: "key", code: "KeyB", down: true }] });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(has(app.calls, "key", "KeyB", true)).toBe(false);
    expect(app.text()).toContain("autorisation retirée");
    // The server records the withdrawal, then the customer allows control again on the page.
    socket.emit("device:state", { ...STATE, consent: false, controlActive: false });
    socket.emit("device:state", STATE);
    socket.emit("device:input", { screen: null, events: [{ t: "key", code: "KeyB", down: true }] });
    await server.waitFor(() => has(app.calls, "key", "KeyB", true));
    app.stdin.write("\u0003");
    expect(await app.exit).toBe(0);
  });

  it("fails with the server's French message on a refused code or token", async () => {
    server.codes.clear();
    const refused = start(["--code", "ACDE3479"]);
    expect(await refused.exit).toBe(1);
    expect(refused.err.join("")).toContain(DEVICE_MESSAGES.pairingInvalid);

    server.codes.add("ACDE3479");
    const badToken = start(["--code", "ACDE3479"], { token: "stolen" });
    expect(await badToken.exit).toBe(1);
    expect(badToken.text()).toContain(DEVICE_MESSAGES.tokenInvalid);
    expect(badToken.calls).toEqual([["close"]]);
  });

  it("explains an unreachable server", async () => {
    const app = start(["--code", "ACDE3479", "--server", "http://127.0.0.1:1"]);
    expect(await app.exit).toBe(1);
    expect(app.err.join("")).toMatch(/Impossible de joindre le serveur http:\/\/127\.0\.0\.1:1/);
  });
});
