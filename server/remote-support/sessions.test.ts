import { sql } from "drizzle-orm";
import { pino } from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SESSION_CODE_ALPHABET, SESSION_MESSAGES, isReadableSessionCode } from "#app/remote-support/protocol.ts";
import { sessions } from "#database/schema.ts";
import { DATABASE_KINDS, emptyTables, openTestDatabase, type TestDatabase } from "#tests/support/databases.ts";
import {
  accountRole,
  createAccounts,
  startRemoteSupportServer,
  type RemoteSupportServer,
  type Role,
  type TestAccount,
} from "#tests/support/remote-support.ts";
import type { Caller } from "#server/access.ts";
import { createSessionService, generateSessionCode, type SessionServiceEvent } from "./sessions.ts";

describe("session codes", () => {
  it("are six symbols without look-alikes, from a crypto source spread over the whole alphabet", () => {
    const codes = Array.from({ length: 2_000 }, generateSessionCode);
    expect(codes.every(isReadableSessionCode)).toBe(true);
    expect(new Set(codes).size).toBeGreaterThan(1_990);
    const used = new Set(codes.join(""));
    expect([...SESSION_CODE_ALPHABET].every((symbol) => used.has(symbol))).toBe(true);
    expect(SESSION_CODE_ALPHABET).not.toMatch(/[0O1IL5S2Z8B]/);
  });
});

describe.each(DATABASE_KINDS)("session service on %s", (kind) => {
  let database: TestDatabase;
  let server: RemoteSupportServer;
  let accounts: Record<Role, TestAccount>;
  const logger = pino({ level: "silent" });
  const callerOf = (role: Role, authSessionId = `navigateur-${role}`): Caller => ({
    userId: accounts[role].id,
    name: accounts[role].name,
    email: accounts[role].email,
    role: accountRole(accounts[role]),
    authSessionId,
  });

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

  it("refuses every call without a signed-in caller", async () => {
    const { sessions: service } = server;
    for (const outcome of [
      await service.create(null, {}),
      await service.join(null, "ACDEFG"),
      await service.disconnect(null, "ACDEFG"),
      await service.active(null),
      await service.history(null),
      await service.mine(null),
      await service.report(null, "ACDEFG"),
      await service.verifyPassword(null, "x"),
      await service.requests(null),
      await service.relaySignal(null, "ACDEFG", { type: "ready" }),
      await service.recordEvent(null, "ACDEFG", { kind: "chat", text: "bonjour" }),
      await service.events(null, "ACDEFG"),
      await service.participant(null, "ACDEFG"),
    ]) {
      expect(outcome).toEqual({ ok: false, reason: "not-signed-in", message: "Utilisateur non connecté" });
    }
  });

  it("draws another code when a generated one is taken", async () => {
    const taken = generateSessionCode();
    const fresh = generateSessionCode();
    const codes = [taken, fresh];
    const service = createSessionService({
      db: database.db,
      logger,
      verifyPasswordHash: async () => false,
      generateCode: () => codes.shift() ?? generateSessionCode(),
    });
    await database.db
      .insert(sessions)
      .values({ code: taken, userId: accounts.otherCustomer.id, userName: "Paul", userEmail: "paul@exemple.fr" });
    const outcome = await service.create(callerOf("customer"), {});
    expect(outcome.ok && outcome.session.code).toBe(fresh);
  });

  it("announces created, joined and ended sessions after commit, not refusals or unchanged ones", async () => {
    const events: SessionServiceEvent[] = [];
    const unsubscribe = server.sessions.subscribe((event) => events.push(event));
    try {
      const created = await server.sessions.create(callerOf("customer"), {});
      if (!created.ok) throw new Error(created.message);
      await server.sessions.create(callerOf("customer"), {}); // the same open session: no event
      await server.sessions.join(callerOf("technician"), created.session.code);
      await server.sessions.join(callerOf("otherTechnician"), created.session.code); // refused
      await server.sessions.disconnect(callerOf("customer"), created.session.code);
      await server.sessions.disconnect(callerOf("technician"), created.session.code); // already ended
      expect(events.map((event) => event.type === "session" && event.session.status)).toEqual([
        "disconnected",
        "connected",
        "disconnected",
      ]);
    } finally {
      unsubscribe();
    }
  });

  it("reports a database failure as a French refusal instead of throwing", async () => {
    await database.db.execute(sql.raw("alter table sessions add constraint test_refuse_all check (false) not valid"));
    try {
      const outcome = await server.sessions.create(callerOf("customer"), {});
      expect(outcome).toEqual({ ok: false, reason: "failed", message: SESSION_MESSAGES.failed });
    } finally {
      await database.db.execute(sql.raw("alter table sessions drop constraint test_refuse_all"));
    }
  });

  it("closes reports again when the sign-in session ends", async () => {
    const technician = callerOf("technician", "navigateur-qui-se-deconnecte");
    const created = await server.sessions.create(callerOf("customer"), {});
    if (!created.ok) throw new Error(created.message);
    await server.sessions.join(technician, created.session.code);
    expect((await server.sessions.verifyPassword(technician, accounts.technician.password)).ok).toBe(true);
    expect((await server.sessions.report(technician, created.session.code)).ok).toBe(true);
    // Another sign-in session of the same technician has no grant.
    expect(
      await server.sessions.report(callerOf("technician", "autre-navigateur"), created.session.code),
    ).toMatchObject({
      reason: "report-locked",
    });
    server.sessions.authSessionEnded({ id: technician.authSessionId, userId: technician.userId });
    await expect.poll(async () => (await server.sessions.report(technician, created.session.code)).ok).toBe(false);
  });

  it("refuses the report check for an account without a password", async () => {
    const stranger: Caller = {
      userId: "inconnu",
      name: "X",
      email: "x@exemple.fr",
      role: "technician",
      authSessionId: "s",
    };
    expect(await server.sessions.verifyPassword(stranger, "mot-de-passe")).toMatchObject({
      ok: false,
      reason: "wrong-password",
    });
  });
});
