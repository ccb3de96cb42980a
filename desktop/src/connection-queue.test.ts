/**
 * Issue 27: the app keeps the place in the waiting queue the server pushes
 * (`device:queue`) for its view, redraws on each, and ignores anything that
 * is not a place.
 */
import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { recordingInjector } from "../test/fakes.ts";
import { DeviceConnection, type DeviceSocket } from "./connection.ts";

/** Server events are emitted on it; what the app sends goes nowhere. */
class FakeSocket extends EventEmitter {
  connected = true;
  active = true;
  io = { engine: null };
  disconnect() {
    this.connected = false;
    return this;
  }
}

describe("the place in the waiting queue", () => {
  it("follows device:queue, null once out of the queue, and ignores a malformed push", () => {
    const socket = new FakeSocket();
    let changes = 0;
    const link = new DeviceConnection(socket as unknown as DeviceSocket, recordingInjector().injector, {
      onChange: () => changes++,
      onNotice: () => {},
      onFinished: () => {},
    });
    link.start();
    expect(link.waiting).toBeNull();
    socket.emit("device:queue", { place: 2, total: 3, estimatedMinutes: 30 });
    expect(link.waiting).toEqual({ place: 2, total: 3, estimatedMinutes: 30 });
    socket.emit("device:queue", { place: "premier" });
    expect(link.waiting).toBeNull();
    socket.emit("device:queue", { place: 1, total: 1, estimatedMinutes: 15 });
    socket.emit("device:queue", null);
    expect(link.waiting).toBeNull();
    expect(changes).toBe(4);
    void link.stop(0);
  });
});
