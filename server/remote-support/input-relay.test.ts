/**
 * The input relay's checks on arrival (issue 37): what a customer, a malformed session code or a burst while
 * the session is being read cost — no query, no log, no queue beyond `MAX_PENDING_BATCHES` — and the release
 * sent when a socket that controlled an app goes.
 */
import { EventEmitter } from "node:events";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { DEVICE_MESSAGES, type InputAck } from "#app/remote-support/device-protocol.ts";
import type { Caller } from "#server/access.ts";
import type { DeviceService } from "./device-service.ts";
import type { ControlState } from "./device-state.ts";
import { attachInputHandlers, MAX_PENDING_BATCHES } from "./input-relay.ts";

const technician: Caller = {
  userId: "tech-1",
  name: "Julien",
  email: "julien@atelier.example",
  role: "technician",
  authSessionId: "auth-1",
};
const ACTIVE: ControlState = {
  sessionId: "s-1",
  technicianId: "tech-1",
  pairingId: "p-1",
  refusal: null,
  screen: "0",
  viewing: true,
  loadedAt: 0,
};
const MOVE = [{ t: "move" as const, x: 0.5, y: 0.5 }];

/** A browser socket of `caller` on a relay whose session reads wait for `read` (default: at once, `ACTIVE`). */
function relay(caller: Caller, read: () => Promise<ControlState | null> = async () => ACTIVE) {
  const socket = Object.assign(new EventEmitter(), { data: { caller } });
  const reads: string[] = [];
  const sent: unknown[] = [];
  const released: string[] = [];
  const devices = {
    controlState: (code: string) => {
      reads.push(code);
      return read();
    },
  } as unknown as DeviceService;
  attachInputHandlers(socket as never, {
    devices,
    logger: pino({ level: "silent" }),
    sendInput: (pairingId, batch) => sent.push([pairingId, batch]),
    release: (pairingId) => released.push(pairingId),
  });
  const input = (batch: unknown) => new Promise<InputAck>((resolve) => socket.emit("input", batch, resolve));
  return { socket, reads, sent, released, input };
}

describe("the input relay", () => {
  it("relays the joined technician's input to the app, with the monitor, and releases it when the socket goes", async () => {
    const { socket, reads, sent, released, input } = relay(technician);
    expect(await input({ code: "k7w-9ga", events: MOVE })).toEqual({ ok: true });
    expect(reads).toEqual(["K7W9GA"]);
    expect(sent).toEqual([["p-1", { events: MOVE, screen: "0" }]]);
    socket.emit("disconnect");
    expect(released).toEqual(["p-1"]);
  });

  it("refuses a customer's input before reading any session", async () => {
    const { reads, sent, input } = relay({ ...technician, role: "customer" });
    expect(await input({ code: "K7W9GA", events: MOVE })).toEqual({
      ok: false,
      message: DEVICE_MESSAGES.controlRefused,
    });
    expect(reads).toEqual([]);
    expect(sent).toEqual([]);
  });

  it("refuses a session code PostgreSQL could not even read (a NUL byte) before any query", async () => {
    const { reads, input } = relay(technician);
    for (const code of ["K7W\u00009GA", "", "K7W 9GA ✓"]) {
      expect(await input({ code, events: MOVE })).toEqual({ ok: false, message: DEVICE_MESSAGES.controlRefused });
    }
    expect(reads).toEqual([]);
  });

  it("queues at most MAX_PENDING_BATCHES while the session is read, refuses the rest, then relays those in order", async () => {
    let open: (state: ControlState) => void = () => {};
    const gate = new Promise<ControlState>((resolve) => (open = resolve));
    const { sent, input } = relay(technician, () => gate);
    const acks = Array.from({ length: MAX_PENDING_BATCHES }, (_, i) =>
      input({ code: "K7W9GA", events: [{ t: "move", x: i / 64, y: 0 }] }),
    );
    expect(await input({ code: "K7W9GA", events: MOVE })).toEqual({
      ok: false,
      message: DEVICE_MESSAGES.tooMuchInput,
    });
    open(ACTIVE);
    expect(await Promise.all(acks)).toEqual(acks.map(() => ({ ok: true })));
    expect(sent.map((entry) => (entry as [string, { events: { x: number }[] }])[1].events[0]!.x)).toEqual(
      acks.map((_, i) => i / 64),
    );
    // Room again once they are through.
    expect(await input({ code: "K7W9GA", events: MOVE })).toEqual({ ok: true });
  });
});
