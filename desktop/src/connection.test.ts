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
