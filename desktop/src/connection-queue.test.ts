/**
 * Issue 27: the app keeps the place in the waiting queue the server pushes
 * (`device:queue`) for its view, redraws on each, and ignores anything that
 * is not a place; issue 29: with the shop's opening hours when they are
 * valid ones, none otherwise (the view then says the defaults).
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

  it("keeps the opening hours sent with the place, checked against the identity's schema (issue 29)", () => {
    const socket = new FakeSocket();
    const link = new DeviceConnection(socket as unknown as DeviceSocket, recordingInjector().injector, {
      onChange: () => {},
      onNotice: () => {},
      onFinished: () => {},
    });
    link.start();
    const place = { place: 1, total: 1, estimatedMinutes: 15 };
    const saturdays = [{ days: [6], opens: "10:00", closes: "12:30", byAppointment: false }];
    socket.emit("device:queue", { ...place, openingHours: saturdays, extra: "ignoré" });
    expect(link.waiting).toEqual({ ...place, openingHours: saturdays });
    // Malformed hours (closing before opening, not a list): the place stays, the hours are dropped.
    socket.emit("device:queue", { ...place, openingHours: [{ days: [1], opens: "14:00", closes: "09:00" }] });
    expect(link.waiting).toEqual(place);
    socket.emit("device:queue", { ...place, openingHours: "9h-19h" });
    expect(link.waiting).toEqual(place);
    // A server older than issue 29.
    socket.emit("device:queue", place);
    expect(link.waiting).toEqual(place);
    void link.stop(0);
  });
});
