/**
 * The link's status reports (issue 15): the app tells the server again when
 * its screens or its injection status change (a monitor plugged in, the macOS
 * permission granted while it runs), and only then.
 */
import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import type { Injection, Screen } from "#app/remote-support/device-protocol.ts";
import { recordingInjector } from "../test/fakes.ts";
import { DeviceConnection, type DeviceSocket } from "./connection.ts";

/** What the app sends; every other `device:` event comes from the server. */
const APP_EVENTS = ["device:status", "device:consent", "device:leave", "device:frame"];

/** Just enough of a Socket.IO client socket: server events are emitted on it, app emits are recorded. */
class FakeSocket extends EventEmitter {
  connected = true;
  active = true;
  sent: [string, unknown][] = [];
  io = { engine: null };
  override emit(event: string, ...args: unknown[]): boolean {
    if (
      ["connect", "disconnect", "connect_error"].includes(event) ||
      (event.startsWith("device:") && !APP_EVENTS.includes(event))
    ) {
      return super.emit(event, ...args);
    }
    this.sent.push([event, args[0]]);
    return true;
  }
  disconnect() {
    this.connected = false;
    return this;
  }
}

describe("status reports", () => {
  it("re-sends device:status when screens or injection change, not otherwise", async () => {
    let injection: Injection = { ok: false, reason: "macOS : autorisation Accessibilité manquante." };
    let screens: Screen[] = [{ id: "1", x: 0, y: 0, width: 1440, height: 900, scale: 2, primary: true }];
    const { injector } = recordingInjector();
    injector.status = () => injection;
    injector.screens = () => screens;
    const socket = new FakeSocket();
    let changes = 0;
    const link = new DeviceConnection(
      socket as unknown as DeviceSocket,
      injector,
      {
        onChange: () => changes++,
        onNotice: () => {},
        onFinished: () => {},
      },
      20,
    );
    link.start();
    socket.emit("connect");
    expect(socket.sent).toEqual([["device:status", { injection, screens }]]);

    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(socket.sent).toHaveLength(1);

    injection = { ok: true };
    const before = changes;
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(socket.sent).toEqual([
      ["device:status", expect.anything()],
      ["device:status", { injection: { ok: true }, screens }],
    ]);
    expect(link.injection).toEqual({ ok: true });
    expect(changes).toBeGreaterThan(before);

    screens = [...screens, { id: "2", x: 1440, y: 0, width: 1920, height: 1080, scale: 1, primary: false }];
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(socket.sent).toHaveLength(3);
    await link.stop(0);
    // Issue 26: leaving unpairs the app at once on the server (consent withdrawn with it).
    expect(socket.sent.at(-1)).toEqual(["device:leave", undefined]);
  });
});

describe("the picture (issue 26)", () => {
  it("streams only once the customer allowed it and the server asks, and says a failing capture once", async () => {
    const socket = new FakeSocket();
    const { injector } = recordingInjector();
    const notices: string[] = [];
    let failing = false;
    const image = { width: 64, height: 64, stride: 256, data: new Uint8Array(256 * 64) };
    const link = new DeviceConnection(
      socket as unknown as DeviceSocket,
      injector,
      { onChange: () => {}, onNotice: (message) => notices.push(message), onFinished: () => {} },
      60_000,
      {
        capturer: {
          status: () => ({ ok: true }),
          grab: () => {
            if (failing) throw new Error("bureau sécurisé");
            return image;
          },
          close: () => {},
        },
        encoder: { status: () => ({ ok: true }), encode: () => new Uint8Array(10), close: () => {} },
      },
    );
    link.start();
    socket.emit("connect");
    expect(link.status().capture).toEqual({ ok: true });
    socket.emit("device:screen", { active: true, screen: null, refresh: 0 });
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(socket.sent.filter(([event]) => event === "device:frame")).toEqual([]);

    link.allowView(true);
    expect(socket.sent).toContainEqual(["device:consent", { view: true }]);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(socket.sent.filter(([event]) => event === "device:frame")).toHaveLength(1);
    expect(link.streaming).toBe(true);

    // A UAC prompt: every capture fails (20 a second), the customer reads it once.
    failing = true;
    socket.emit("device:screen", { active: true, screen: null, refresh: 1 });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(notices).toEqual(["Capture de l'écran : bureau sécurisé"]);

    link.allowView(false);
    expect(link.streaming).toBe(false);
    await link.stop(0);
  });
});
