/**
 * Issue 26, what the data of a session the desktop app started does when
 * accounts go and time passes, on both databases: deleting a customer's
 * account leaves app sessions alone, deleting their technician's keeps them
 * (technician unset), retention purges them like any session, and the
 * database's check keeps "site sessions have an account, app sessions none";
 * a database failure is a French 500 without details.
 */
import { eq } from "drizzle-orm";
import express from "express";
import { pino } from "pino";
import request from "supertest";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { DeviceSessionResponse } from "#app/remote-support/device-protocol.ts";
import { SESSION_MESSAGES } from "#app/remote-support/protocol.ts";
import type { AppDatabase } from "#database/connection.ts";
import { sessionDevices, sessions, users } from "#database/schema.ts";
import type { Auth } from "#server/auth.ts";
import { parseEnv } from "#server/env.ts";
import { purgeExpired, retentionPolicyFromEnv } from "#server/retention.ts";
import { DATABASE_KINDS, emptyTables, openTestDatabase, type TestDatabase } from "#tests/support/databases.ts";
import {
  createAccount,
  createAccounts,
  startRemoteSupportServer,
  type RemoteSupportServer,
  type Role,
  type TestAccount,
} from "#tests/support/remote-support.ts";
import { createDeviceRouter } from "./device-api.ts";
import type { DeviceService } from "./device-service.ts";
import { PAIR_FIELDS, startAppSession } from "./device-testing.ts";
import { createSessionService } from "./sessions.ts";

describe.each(DATABASE_KINDS)("data of sessions started by the desktop app on %s", (kind) => {
  let database: TestDatabase;
  let server: RemoteSupportServer;
  let accounts: Record<Role, TestAccount>;

  /** A session started by the app (201 checked). */
  const started = async (): Promise<DeviceSessionResponse> => {
    const response = await startAppSession(server);
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return response.body as DeviceSessionResponse;
  };

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    server = await startRemoteSupportServer(database);
    accounts = await createAccounts(server, database);
  });
  beforeEach(async () => {
    await emptyTables(database.db);
  });
  afterAll(async () => {
    await server?.close();
    await database?.dispose();
  });

  it("leaves app sessions alone when accounts go: a customer's deletion, a technician's (kept, technician unset)", async () => {
    const leaving = await createAccount(server, database, "customer", false, `-app-${kind}`);
    const own = await request(server.url).post("/api/sessions").set("Cookie", leaving.cookie).send({});
    expect(own.status).toBe(201);
    const { sessionCode } = await started();
    const technician = await createAccount(server, database, "otherTechnician", true, `-app-${kind}`);
    expect(
      (
        await request(server.url)
          .post("/api/sessions/join")
          .set("Cookie", technician.cookie)
          .send({ code: sessionCode })
      ).status,
    ).toBe(200);

    await database.db.delete(users).where(eq(users.id, leaving.id));
    await database.db.delete(users).where(eq(users.id, technician.id));
    const left = await database.db.select().from(sessions);
    // The customer's own session went with their account; the app session stays, without its technician.
    expect(left.map(({ code, technicianId, origin }) => ({ code, technicianId, origin }))).toEqual([
      { code: sessionCode, technicianId: null, origin: "app" },
    ]);
  });

  it("retention: an app session goes with its app's row and record once past the period, like any session", async () => {
    const { sessionCode } = await started();
    await server.sessions.endByServer(sessionCode);
    // The app is unpaired after the end is announced; its record event must exist before the purge.
    await expect.poll(async () => (await database.db.select().from(sessionDevices))[0]?.pairingId).toBeNull();
    const policy = retentionPolicyFromEnv(parseEnv({}));
    const purge = () => purgeExpired({ db: database.db, policy, outboxFolder: database.dataDir, pauseMs: 0 });
    expect(await purge()).toMatchObject({ sessions: 0, sessionDevices: 0 });
    await database.db.update(sessions).set({ endTime: new Date(Date.now() - (policy.sessionDays + 1) * 86_400_000) });
    expect(await purge()).toMatchObject({ sessionEvents: 3, sessionDevices: 1, sessions: 1 });
    expect(await database.db.select().from(sessionDevices)).toEqual([]);
  });

  it("keeps the customer check: a site session has an account, an app session none", async () => {
    await expect(
      database.db.insert(sessions).values({ code: "ACDE34", userName: "Sans compte", userEmail: null }),
    ).rejects.toThrow();
    await expect(
      database.db
        .insert(sessions)
        .values({ code: "ACDE36", userId: accounts.customer.id, userName: "X", userEmail: null, origin: "app" }),
    ).rejects.toThrow();
  });
});

describe("a database failure while the app starts a session (issue 26)", () => {
  it("answers 500 in French, with no stack and no detail", async () => {
    const broken = {
      transaction: () => Promise.reject(new Error("connexion perdue\n    at pg (secret.js:1:1)")),
    } as unknown as AppDatabase;
    const logger = pino({ level: "silent" });
    const sessionService = createSessionService({ db: broken, logger, verifyPasswordHash: async () => false });
    const app = express();
    app.use("/api", createDeviceRouter({ auth: {} as Auth, devices: {} as DeviceService, sessions: sessionService }));
    const response = await request(app).post("/api/device/sessions").send(PAIR_FIELDS);
    expect(response.status).toBe(500);
    expect(response.body).toEqual({ message: SESSION_MESSAGES.failed });
    expect(response.text).not.toMatch(/connexion perdue|secret\.js|\n\s+at /);
  });
});
