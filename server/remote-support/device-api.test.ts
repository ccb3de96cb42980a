/**
 * Issue 15, the desktop app's HTTP API (`device-api.ts`, `device-service.ts`)
 * on both databases: pairing codes (single use, bound to session and account,
 * expiry, replacement), pairing, consent, surface, the view, the record's
 * events, and French 4xx answers for bad input.
 */
import { eq } from "drizzle-orm";
import { pino } from "pino";
import request from "supertest";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEVICE_MESSAGES, type DeviceView } from "#app/remote-support/device-protocol.ts";
import { devicePairingCodes, sessionDevices, sessions } from "#database/schema.ts";
import { parseEnv } from "#server/env.ts";
import { purgeExpired, retentionPolicyFromEnv } from "#server/retention.ts";
import { badInputs } from "#tests/support/bad-inputs.ts";
import { DATABASE_KINDS, emptyTables, openTestDatabase, type TestDatabase } from "#tests/support/databases.ts";
import {
  createAccounts,
  startRemoteSupportServer,
  type RemoteSupportServer,
  type Role,
  type TestAccount,
} from "#tests/support/remote-support.ts";
import {
  asAccount,
  connectDevice,
  nextDeviceEvent,
  openSession,
  pair,
  PAIR_FIELDS,
  pairDevice,
  pairingCode,
  type DeviceClient,
} from "./device-testing.ts";
import { withRealWait } from "./http.ts";

describe.each(DATABASE_KINDS)("desktop app API on %s", (kind) => {
  let database: TestDatabase;
  let server: RemoteSupportServer;
  let accounts: Record<Role, TestAccount>;
  let as: ReturnType<typeof asAccount>;
  const opened: DeviceClient[] = [];

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    // A short code lifetime for the expiry test; others pair at once.
    server = await startRemoteSupportServer(database, {
      deviceOptions: { pairingCodeTtlSeconds: 1, pairingLimit: { points: 1000, durationSeconds: 60 } },
    });
    accounts = await createAccounts(server, database);
    as = asAccount(server, accounts);
  });
  beforeEach(async () => {
    await emptyTables(database.db);
  });
  afterEach(() => {
    for (const socket of opened.splice(0)) socket.close();
  });
  afterAll(async () => {
    await server?.close();
    await database?.dispose();
  });

  it("pairs the app with a code shown to the customer: token, names, view, record", async () => {
    const code = await openSession(as);
    const issued = await as("customer", "post", `/api/sessions/${code}/pairing`);
    expect(issued.status).toBe(201);
    expect(issued.body.pairingCode).toMatch(/^[ACDEFGHJKMNPQRTUVWXY34679]{8}$/);
    expect(Date.parse(issued.body.expiresAt)).toBeGreaterThan(Date.now());
    // Stored hashed only.
    const [stored] = await database.db.select().from(devicePairingCodes);
    expect(stored!.codeHash).not.toContain(issued.body.pairingCode);

    // Typed as the page shows it: lower case, with its dash.
    const typed = `${issued.body.pairingCode.slice(0, 4)}-${issued.body.pairingCode.slice(4)}`.toLowerCase();
    const paired = await pair(server, typed);
    expect(paired.status).toBe(201);
    expect(paired.body).toEqual({
      deviceToken: expect.stringMatching(/^[\w-]{40,}$/),
      customerName: accounts.customer.name,
      sessionCode: code,
    });
    const [row] = await database.db.select().from(sessionDevices);
    expect(row!.tokenHash).not.toBe(paired.body.deviceToken);

    const before = await as("technician", "get", `/api/sessions/${code}/device`);
    expect(before.status).toBe(200);
    expect(before.body.device).toMatchObject<Partial<DeviceView>>({
      paired: true,
      connected: false,
      computerName: "PC-SALON",
      platform: "linux",
      consent: false,
      controlActive: false,
    });
    const device = await connectDevice(server.url, paired.body.deviceToken);
    opened.push(device);
    await expect
      .poll(async () => (await as("customer", "get", `/api/sessions/${code}/device`)).body.device.connected)
      .toBe(true);

    const events = await as("customer", "get", `/api/sessions/${code}/events`);
    expect(events.body.events.map((event: { kind: string }) => event.kind)).toContain("device-paired");
  });

  it("refuses a pairing code used twice, even sent twice at once", async () => {
    const code = await openSession(as);
    const once = await pairingCode(as, code);
    const [first, second] = await Promise.all([pair(server, once), pair(server, once)]);
    expect([first.status, second.status].sort()).toEqual([201, 400]);
    const third = await pair(server, once);
    expect(third.status).toBe(400);
    expect(third.body.message).toBe(DEVICE_MESSAGES.pairingInvalid);
  });

  it("a new code voids the previous one; a code pairs only its own session and account", async () => {
    const code = await openSession(as);
    const old = await pairingCode(as, code);
    const current = await pairingCode(as, code);
    expect((await pair(server, old)).status).toBe(400);

    // Another customer's session: its code pairs into that session only, never into this one.
    const otherCode = await openSession(as, "otherCustomer", "otherTechnician");
    const otherPairing = await pairingCode(as, otherCode, "otherCustomer");
    const paired = await pair(server, otherPairing);
    expect(paired.body.sessionCode).toBe(otherCode);
    expect((await as("customer", "get", `/api/sessions/${code}/device`)).body.device.paired).toBe(false);

    // Only the session's customer asks for codes, consents and reports the surface: its technician is refused, and
    // to anyone else the session does not exist (issue 28 §7: the answer to an unused code).
    for (const role of ["technician", "otherCustomer", "otherTechnician"] as const) {
      const expected = role === "technician" ? 403 : 404;
      const asked = await as(role, "post", `/api/sessions/${code}/pairing`);
      expect(asked.status, role).toBe(expected);
      expect((await as(role, "post", `/api/sessions/${code}/consent`).send({ allowed: true })).status, role).toBe(
        expected,
      );
      expect(
        (
          await as(role, "post", `/api/sessions/${code}/surface`).send({
            displaySurface: "monitor",
            width: 1,
            height: 1,
          })
        ).status,
        role,
      ).toBe(expected);
    }
    expect((await as("technician", "post", `/api/sessions/${code}/pairing`)).body.message).toBe(
      DEVICE_MESSAGES.ownerOnly,
    );
    expect((await as("otherTechnician", "get", `/api/sessions/${code}/device`)).status).toBe(404);
    expect((await pair(server, current)).status).toBe(201);
  });

  it("refuses an expired code, and a code whose session ended", async () => {
    const code = await openSession(as);
    const expiring = await pairingCode(as, code);
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect((await pair(server, expiring)).body.message).toBe(DEVICE_MESSAGES.pairingInvalid);

    const fresh = await pairingCode(as, code);
    await as("customer", "post", `/api/sessions/${code}/disconnect`);
    expect((await pair(server, fresh)).status).toBe(400);
    const ended = await as("customer", "post", `/api/sessions/${code}/pairing`);
    expect(ended.status).toBe(409);
  });

  it("a second pairing replaces the first app, which is told device:ended and loses its token", async () => {
    const code = await openSession(as);
    const firstToken = await pairDevice(server, as, code);
    const first = await connectDevice(server.url, firstToken);
    opened.push(first);
    const ended = nextDeviceEvent(first, "device:ended");
    await pairDevice(server, as, code);
    expect((await ended)[0]).toBe(DEVICE_MESSAGES.replaced);
    await expect(connectDevice(server.url, firstToken)).rejects.toThrow(DEVICE_MESSAGES.tokenInvalid);
  });

  it("consent: needs a paired app, is recorded, and picks the shown screen from the surface", async () => {
    const code = await openSession(as);
    const refused = await as("customer", "post", `/api/sessions/${code}/consent`).send({ allowed: true });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(DEVICE_MESSAGES.notPaired);
    // The surface may come before the app.
    const surface = await as("customer", "post", `/api/sessions/${code}/surface`).send({
      displaySurface: "monitor",
      width: 1920,
      height: 1080,
    });
    expect(surface.body.device).toMatchObject({ paired: false, wholeScreen: true, shownScreen: null });
    await pair(server, await pairingCode(as, code), {
      ...PAIR_FIELDS,
      screens: [
        { id: "a", x: 0, y: 0, width: 1280, height: 720, primary: true },
        { id: "b", x: 1280, y: 0, width: 960, height: 540, scale: 2 },
      ],
    });
    const allowed = await as("customer", "post", `/api/sessions/${code}/consent`).send({ allowed: true });
    expect(allowed.status).toBe(200);
    expect(allowed.body.device).toMatchObject({ consent: true, shownScreen: "b", wholeScreen: true });
    const windowed = await as("customer", "post", `/api/sessions/${code}/surface`).send({
      displaySurface: "window",
      width: 800,
      height: 600,
    });
    expect(windowed.body.device).toMatchObject({ wholeScreen: false, shownScreen: null });
    await as("customer", "post", `/api/sessions/${code}/consent`).send({ allowed: false });
    const kinds = (await as("technician", "get", `/api/sessions/${code}/events`)).body.events.map(
      (event: { kind: string }) => event.kind,
    );
    expect(kinds).toEqual(expect.arrayContaining(["device-paired", "control-allowed", "control-withdrawn"]));
  });

  it("answers bad input with French 4xx, never a 5xx", async () => {
    const code = await openSession(as);
    const bad: [string, unknown][] = [
      ["/api/device/pair", {}],
      ["/api/device/pair", { ...PAIR_FIELDS, pairingCode: "ACDE" }],
      ["/api/device/pair", { ...PAIR_FIELDS, pairingCode: "ACDE3479", screens: [] }],
      ["/api/device/pair", { ...PAIR_FIELDS, pairingCode: "ACDE3479", platform: "amiga" }],
      ["/api/device/pair", [1, 2, 3]],
      ["/api/device/pair", { ...PAIR_FIELDS, pairingCode: "ACDE3479", computerName: "x".repeat(20_000) }],
      [`/api/sessions/${code}/consent`, { allowed: "oui" }],
      [`/api/sessions/${code}/surface`, { displaySurface: "monitor", width: -1, height: 2 }],
      [`/api/sessions/${code}/surface`, "null"],
    ];
    for (const [path, body] of bad) {
      const response = await request(server.url)
        .post(path)
        .set("Cookie", accounts.customer.cookie)
        .set("Content-Type", "application/json")
        .send(typeof body === "string" ? body : JSON.stringify(body));
      expect(response.status, `${path} ${JSON.stringify(body).slice(0, 60)}`).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
      expect(response.body.message).toMatch(/[a-zà-ÿ]/);
      expect(response.body.message).not.toMatch(/expected|invalid_type|Invalid/);
    }
    const broken = await request(server.url)
      .post("/api/device/pair")
      .set("Content-Type", "application/json")
      .send("{ pas du json");
    expect(broken.status).toBe(400);
    expect((await request(server.url).post(`/api/sessions/${code}/pairing`)).status).toBe(401);
    expect((await as("customer", "get", "/api/sessions/%00/device")).status).toBe(400);
    expect((await as("customer", "get", "/api/sessions/ZZZZZZ/device")).status).toBe(404);
  });

  it("answers the shared hostile inputs (NUL, half characters, wrong types, broken bodies) without a 5xx", async () => {
    const code = await openSession(as);
    // Flat string bodies: each field's hostile values, and whole bodies that are not what they claim.
    const attempts = badInputs([
      {
        name: "pair",
        path: "/api/device/pair",
        caller: "anonymous",
        valid: { pairingCode: "ACDE3479", computerName: "PC-SALON", platform: "linux", arch: "x64", appVersion: "1" },
      },
      {
        name: "surface",
        path: `/api/sessions/${code}/surface`,
        caller: "customer",
        valid: { displaySurface: "monitor" },
      },
    ]);
    const statuses = new Set<number>();
    for (const attempt of attempts) {
      const response = await fetch(server.url + attempt.path, {
        method: "POST",
        headers: {
          ...(attempt.contentType ? { "Content-Type": attempt.contentType } : {}),
          ...(attempt.caller === "customer" ? { Cookie: accounts.customer.cookie } : {}),
        },
        body: attempt.body,
      });
      statuses.add(response.status);
      expect(response.status, `${attempt.target}: ${attempt.input}`).toBeLessThan(500);
    }
    expect([...statuses].every((status) => status >= 400)).toBe(true);
    // A valid code with a NUL or half a character in a stored field: refused, and the code is still unused.
    for (const computerName of ["PC\u0000SALON", "PC\uD800"]) {
      const refused = await pair(server, await pairingCode(as, code), { ...PAIR_FIELDS, computerName });
      expect(refused.status).toBe(400);
    }
    const screensWithNul = [{ ...PAIR_FIELDS.screens[0], id: "\u0000" }];
    expect((await pair(server, await pairingCode(as, code), { ...PAIR_FIELDS, screens: screensWithNul })).status).toBe(
      400,
    );
  });

  it("lets the app's POST through the Origin check, still refuses another site's", async () => {
    const code = await openSession(as);
    const foreign = await request(server.url)
      .post("/api/device/pair")
      .set("Origin", "https://pirate.example")
      .send({ ...PAIR_FIELDS, pairingCode: await pairingCode(as, code) });
    expect(foreign.status).toBe(403);
    const fromApp = await pair(server, await pairingCode(as, code));
    expect(fromApp.status).toBe(201);
  });

  it("stores the device token hashed, and voids it when the session ends", async () => {
    const code = await openSession(as);
    const token = await pairDevice(server, as, code);
    const [session] = await database.db.select().from(sessionDevices);
    expect(session!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    await as("technician", "post", `/api/sessions/${code}/disconnect`);
    await expect
      .poll(
        async () =>
          (await database.db.select().from(sessionDevices).where(eq(sessionDevices.tokenHash, session!.tokenHash!)))
            .length,
      )
      .toBe(0);
    await expect(connectDevice(server.url, token)).rejects.toThrow(DEVICE_MESSAGES.tokenInvalid);
  });

  it("retention: expired codes go at once, an app's row with its session past the period", async () => {
    const code = await openSession(as);
    await pairDevice(server, as, code);
    await pairingCode(as, code);
    await database.db.update(devicePairingCodes).set({ expiresAt: new Date(Date.now() - 1_000) });
    const policy = retentionPolicyFromEnv(parseEnv({}));
    const purge = () => purgeExpired({ db: database.db, policy, outboxFolder: database.dataDir, pauseMs: 0 });
    const first = await purge();
    expect(first).toMatchObject({ pairingCodes: 1, sessionDevices: 0 });
    expect(await database.db.select().from(sessionDevices)).toHaveLength(1);
    await as("customer", "post", `/api/sessions/${code}/disconnect`);
    // The app is unpaired after the end is announced; its record event must exist before the purge.
    await expect.poll(async () => (await database.db.select().from(sessionDevices))[0]?.pairingId).toBeNull();
    await database.db.update(sessions).set({ endTime: new Date(Date.now() - (policy.sessionDays + 1) * 86_400_000) });
    const second = await purge();
    expect(second).toMatchObject({ sessionDevices: 1, sessions: 1 });
    expect(await database.db.select().from(sessionDevices)).toEqual([]);
  });
});

describe("pairing failures are limited per IP address", () => {
  // Issue 28 §13: 33 refused pairings wrote 33 warnings; anyone can repeat them, so they are only counted.
  it("writes no warning per refused pairing, wrong code or past the limit", async () => {
    const database = await openTestDatabase("pglite");
    const lines: { level: number; msg: string }[] = [];
    const logger = pino({ level: "debug" }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const server = await startRemoteSupportServer(database, {
      logger,
      deviceOptions: { pairingLimit: { points: 3, durationSeconds: 60 } },
    });
    try {
      const statuses = [];
      for (let i = 0; i < 33; i++) statuses.push((await pair(server, "ACDE3479")).status);
      expect(statuses.filter((status) => status === 429)).toHaveLength(30);
      expect(lines.filter((line) => line.level >= 40)).toEqual([]);
      expect(lines.filter((line) => line.msg === "appairages refusés")).toHaveLength(33);
    } finally {
      await server.close();
      await database.dispose();
    }
  });

  it("answers 429 with Retry-After past the limit, in French", async () => {
    const database = await openTestDatabase("pglite");
    const server = await startRemoteSupportServer(database, {
      deviceOptions: { pairingLimit: { points: 3, durationSeconds: 60 } },
    });
    try {
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await pair(server, "ACDE3479")).status);
      expect(statuses).toEqual([400, 400, 400, 429]);
      const limited = await pair(server, "ACDE3479");
      expect(limited.headers["retry-after"]).toMatch(/^\d+$/);
      expect(limited.body.message).toBe(
        withRealWait(DEVICE_MESSAGES.tooManyPairings, Number(limited.headers["retry-after"])),
      );
    } finally {
      await server.close();
      await database.dispose();
    }
  });
});
