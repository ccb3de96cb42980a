/**
 * Issue 26 on both databases: the app's picture reaches the joined
 * technician only, only while the customer allowed it in the app, within
 * the budgets; acknowledgements, monitor switches and refreshes reach the
 * app; leaving the app unpairs it at once.
 */
import { describe, expect, it } from "vitest";
import { DEVICE_MESSAGES } from "#app/remote-support/device-protocol.ts";
import { frameJpegs, packRects, SCREEN_LIMITS, type ScreenFrame } from "#app/remote-support/screen-protocol.ts";
import { fakeJpeg } from "#app/remote-support/jpeg-testing.ts";
import { DATABASE_KINDS } from "#tests/support/databases.ts";
import { deviceSuite } from "./device-suite.ts";
import { connectSocket, pause, record, type Role } from "#tests/support/remote-support.ts";
import {
  PAIR_FIELDS,
  connectDevice,
  nextDeviceEvent,
  openSession,
  pair,
  pairingCode,
  recordDevice,
} from "./device-testing.ts";

const QUIET_MS = 400;
const TWO_SCREENS = [
  { id: "0", x: 0, y: 0, width: 1280, height: 720, scale: 1, primary: true },
  { id: "1", x: 1280, y: 0, width: 1024, height: 768, scale: 1, primary: false },
];
const frame = (seq: number, bytes = 1_000): ScreenFrame => ({
  screen: "0",
  seq,
  width: 1280,
  height: 720,
  full: seq === 1,
  ...packRects([{ x: 0, y: 0, w: 64, h: 64, jpeg: fakeJpeg(64, 64, { bytes }) }]),
});

describe.each(DATABASE_KINDS)("the app's picture on %s", (kind) => {
  const suite = deviceSuite(kind);

  const browser = async (role: Role) => {
    const socket = await connectSocket(suite.server.url, suite.accounts[role].cookie);
    suite.opened.push(socket);
    return socket;
  };
  const deviceView = async (code: string) =>
    (await suite.as("technician", "get", `/api/sessions/${code}/device`)).body.device;

  /** A joined session whose app (able to capture, two screens) is paired and connected; view not yet allowed. */
  async function pairedApp() {
    const code = await openSession(suite.as);
    const paired = await pair(suite.server, await pairingCode(suite.as, code), {
      ...PAIR_FIELDS,
      screens: TWO_SCREENS,
      capture: { ok: true },
    });
    expect(paired.status).toBe(201);
    const app = await connectDevice(suite.server.url, paired.body.deviceToken);
    suite.opened.push(app);
    const technician = await browser("technician");
    await expect.poll(async () => (await deviceView(code)).connected).toBe(true);
    return { code, app, technician };
  }

  /** `pairedApp`, then the customer allows the technician to see the screen in the app. */
  async function viewedApp() {
    const paired = await pairedApp();
    // Pushes of earlier changes may still be on their way (through PostgreSQL): the last one counts.
    const demands = recordDevice(paired.app, "device:screen");
    paired.app.emit("device:consent", { view: true });
    await expect.poll(async () => (await deviceView(paired.code)).appPicture).toBe(true);
    await expect.poll(() => demands.at(-1)?.[0]).toMatchObject({ active: true, screen: "0" });
    return paired;
  }

  it("nothing reaches the technician before the customer allows it in the app", async () => {
    const { code, app, technician } = await pairedApp();
    const frames = record(technician, "screen:frame");
    app.emit("device:frame", frame(1));
    await pause(QUIET_MS);
    expect(frames).toEqual([]);
    expect(await deviceView(code)).toMatchObject({ appPicture: false, viewConsent: false, capture: { ok: true } });
  });

  it("relays frames to the joined technician only, and acknowledgements back to the app", async () => {
    const { code, app, technician } = await viewedApp();
    const customer = await browser("customer");
    const otherTechnician = await browser("otherTechnician");
    const seenByCustomer = record(customer, "screen:frame");
    const seenByOther = record(otherTechnician, "screen:frame");
    const frames = record(technician, "screen:frame");
    app.emit("device:frame", frame(1));
    app.emit("device:frame", frame(2));
    await expect.poll(() => frames.length).toBe(2);
    const [first] = frames[0]!;
    expect(first).toMatchObject({ code, seq: 1, full: true, width: 1280, screen: "0" });
    expect([...frameJpegs(first)[0]!]).toEqual([...fakeJpeg(64, 64, { bytes: 1_000 })]);
    expect(frames.map(([f]) => f.seq)).toEqual([1, 2]);

    const ack = nextDeviceEvent(app, "device:ack");
    technician.emit("screen:ack", { code, seq: 2 });
    expect((await ack)[0]).toBe(2);
    // The customer cannot pace the app or ask for pictures.
    const acks = recordDevice(app, "device:ack");
    customer.emit("screen:ack", { code, seq: 1 });
    otherTechnician.emit("screen:ack", { code, seq: 1 });
    await pause(QUIET_MS);
    expect(acks).toEqual([]);
    expect(seenByCustomer).toEqual([]);
    expect(seenByOther).toEqual([]);
  });

  it("seeing withdrawn in the app: the demand stops and no frame reaches the technician", async () => {
    const { code, app, technician } = await viewedApp();
    const demands = recordDevice(app, "device:screen");
    app.emit("device:consent", { view: false });
    await expect.poll(() => demands.at(-1)?.[0]).toMatchObject({ active: false });
    const frames = record(technician, "screen:frame");
    app.emit("device:frame", frame(3));
    await pause(QUIET_MS);
    expect(frames).toEqual([]);
    const kinds = (await suite.as("customer", "get", `/api/sessions/${code}/events`)).body.events.map(
      (event: { kind: string }) => event.kind,
    );
    expect(kinds.slice(-2)).toEqual(["view-allowed", "view-withdrawn"]);
  });

  it("the technician switches monitors and asks for a full picture; input then maps to that monitor", async () => {
    const { code, app, technician } = await viewedApp();
    const demands = recordDevice(app, "device:screen");
    technician.emit("screen:select", { code, screen: "1" });
    await expect.poll(() => demands.at(-1)?.[0]).toMatchObject({ active: true, screen: "1" });
    expect((await deviceView(code)).shownScreen).toBe("1");
    const before = demands.at(-1)![0].refresh;
    technician.emit("screen:refresh", { code });
    await expect.poll(() => demands.at(-1)?.[0].refresh).toBe(before + 1);
    // No such monitor, or not the session's technician: nothing changes.
    const other = await browser("otherTechnician");
    other.emit("screen:select", { code, screen: "0" });
    technician.emit("screen:select", { code, screen: "9" });
    await pause(QUIET_MS);
    expect((await deviceView(code)).shownScreen).toBe("1");

    await suite.as("customer", "post", `/api/sessions/${code}/consent`).send({ allowed: true });
    await suite.as("technician", "post", `/api/sessions/${code}/events`).send({ kind: "control-on" });
    await expect.poll(async () => (await deviceView(code)).controlActive).toBe(true);
    const input = nextDeviceEvent(app, "device:input");
    technician.emit("input", { code, events: [{ t: "move", x: 0.5, y: 0.5 }] }, () => undefined);
    expect((await input)[0].screen).toBe("1");
  });

  it("drops frames over the size limit and past the session's byte budget", async () => {
    const { app, technician } = await viewedApp();
    const frames = record(technician, "screen:frame");
    app.emit("device:frame", frame(1, SCREEN_LIMITS.frameBytes + 1));
    await pause(QUIET_MS);
    expect(frames).toEqual([]);
    // 100 KB frames: the burst lets about 61 through at once, then about 30 a second.
    const sent = 100;
    for (let seq = 2; seq < 2 + sent; seq += 1) app.emit("device:frame", frame(seq, 100 * 1024));
    await pause(QUIET_MS * 3);
    expect(frames.length).toBeGreaterThan(0);
    expect(frames.length).toBeLessThan(80);
  });

  it("issue 37: relays at most two frames ahead of the technician's acknowledgements", async () => {
    const { code, app, technician } = await viewedApp();
    const frames = record(technician, "screen:frame");
    for (let seq = 1; seq <= 4; seq += 1) app.emit("device:frame", frame(seq));
    await pause(QUIET_MS);
    expect(frames.map(([f]) => f.seq)).toEqual([1, 2]);
    const ack = nextDeviceEvent(app, "device:ack");
    technician.emit("screen:ack", { code, seq: 1 });
    await ack;
    app.emit("device:frame", frame(5));
    app.emit("device:frame", frame(6));
    await pause(QUIET_MS);
    expect(frames.map(([f]) => f.seq)).toEqual([1, 2, 5]);
  });

  it("issue 37: refuses a JPEG whose size is not its rectangle's, and a rectangle outside the picture", async () => {
    const { app, technician } = await viewedApp();
    const frames = record(technician, "screen:frame");
    const bomb = (seq: number, rect: { x: number; y: number; w: number; h: number }, jpeg: Uint8Array) => ({
      ...frame(seq),
      ...packRects([{ ...rect, jpeg }]),
    });
    // The bomb: 7 600 × 7 600 px announced in a 64 × 64 rectangle, under the byte limit.
    app.emit("device:frame", bomb(1, { x: 0, y: 0, w: 64, h: 64 }, fakeJpeg(7600, 7600, { progressive: true })));
    // Its header honest, its rectangle 16 384² in a 1 × 1 picture.
    app.emit("device:frame", {
      ...bomb(2, { x: 0, y: 0, w: 16_384, h: 16_384 }, fakeJpeg(16_384, 16_384)),
      width: 1,
      height: 1,
    });
    app.emit("device:frame", bomb(3, { x: 1_270, y: 0, w: 64, h: 64 }, fakeJpeg(64, 64))); // 1 270 + 64 > 1 280
    app.emit("device:frame", bomb(4, { x: 0, y: 0, w: 64, h: 64 }, new Uint8Array(500).fill(7))); // not a JPEG
    await pause(QUIET_MS);
    expect(frames).toEqual([]);
    // Refused frames take no place in flight: a sound one still goes.
    app.emit("device:frame", bomb(5, { x: 1_216, y: 656, w: 64, h: 64 }, fakeJpeg(64, 64)));
    await expect.poll(() => frames.map(([f]) => f.seq)).toEqual([5]);
  });

  it("issue 37: relays at most a few full 4K pictures a second (decoded pixels)", async () => {
    const { code, app, technician } = await viewedApp();
    const frames = record(technician, "screen:frame");
    technician.on("screen:frame", (f: ScreenFrame) => technician.emit("screen:ack", { code, seq: f.seq }));
    const picture = (seq: number): ScreenFrame => ({
      ...frame(seq),
      width: 3840,
      height: 2160,
      ...packRects([{ x: 0, y: 0, w: 3840, h: 2160, jpeg: fakeJpeg(3840, 2160) }]),
    });
    // 40 full 4K pictures in 1 s, each acknowledged as soon as relayed: only the pixels stop them.
    const started = performance.now();
    for (let seq = 1; seq <= 40; seq += 1) {
      app.emit("device:frame", picture(seq));
      await pause(25);
    }
    await pause(QUIET_MS);
    const seconds = (performance.now() - started) / 1000;
    const perPicture = 3840 * 2160;
    const allowed = (SCREEN_LIMITS.pairingBurstPixels + SCREEN_LIMITS.pairingPixelsPerSecond * seconds) / perPicture;
    expect(frames.length).toBeGreaterThanOrEqual(4);
    expect(frames.length).toBeLessThanOrEqual(Math.ceil(allowed));
    expect(frames.length).toBeLessThan(20);
  });

  it("leaving the app unpairs it at once: the page offers a new pairing code", async () => {
    const { code, app } = await viewedApp();
    const views = record(await browser("customer"), "session:device");
    app.emit("device:leave");
    await expect.poll(() => views.at(-1)?.[0]).toMatchObject({ paired: false, connected: false, appPicture: false });
    const fresh = await suite.as("customer", "post", `/api/sessions/${code}/pairing`);
    expect(fresh.status).toBe(201);
    const again = await pair(suite.server, fresh.body.pairingCode as string);
    expect(again.status).toBe(201);
    await expect(connectDevice(suite.server.url, "x".repeat(43))).rejects.toThrow(DEVICE_MESSAGES.tokenInvalid);
  });
});
