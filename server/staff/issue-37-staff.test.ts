/**
 * Issue 37 §3 and §4 through HTTP and Socket.IO on a real server (PGlite):
 * - §3: an address registered by someone else, before or after the invitation, is taken over by whoever holds the
 *   mailed link (new password, the earlier cookie refused, its socket ended); no message recommends `promote`; a role
 *   change (`npm run user -- promote`) ends the account's sign-ins.
 * - §4: disabling a technician who joined a desktop app's session and was viewing it releases the app (`device:release`,
 *   `device:ended`), ends the session with a line « terminée par le technicien », and re-enabling rejoins nothing.
 */
import { asc, eq, sql } from "drizzle-orm";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DeviceSessionResponse } from "#app/remote-support/device-protocol.ts";
import { sessionEvents, sessions, users } from "#database/schema.ts";
import { roleFields } from "#server/access.ts";
import { parseEnv } from "#server/env.ts";
import { toSessionEventView } from "#server/remote-support/sessions.ts";
import { connectDevice, nextDeviceEvent, PAIR_FIELDS, startAppSession } from "#server/remote-support/device-testing.ts";
import { openTestDatabase, type TestDatabase } from "#tests/support/databases.ts";
import {
  connectSocket,
  createAccount,
  nextEvent,
  signIn,
  startRemoteSupportServer,
  TEST_AUTH_SECRET,
  type RemoteSupportServer,
  type TestAccount,
} from "#tests/support/remote-support.ts";
import { runUserCommand, UsageError } from "../../scripts/user-command.ts";

let database: TestDatabase;
let server: RemoteSupportServer;
let manager: TestAccount;

beforeAll(async () => {
  database = await openTestDatabase("pglite");
  server = await startRemoteSupportServer(database, { staff: {}, revalidateIntervalMs: 60_000 });
  manager = await createAccount(server, database, "customer", false, "-gerant37");
  await database.db.update(users).set(roleFields("manager")).where(eq(users.id, manager.id));
}, 60_000);

afterAll(async () => {
  await server?.close();
  await database?.dispose();
});

/** The token of the last invitation mail sent to `email`. */
async function invitationToken(email: string): Promise<string> {
  const { rows } = (await database.db.execute(
    sql`select mail->>'text' as text from outbox_messages where request_kind = 'staff-invitation' and mail->>'to' = ${email} order by created_at desc, id limit 1`,
  )) as unknown as { rows: { text: string }[] };
  const match = /\/soft-assist\/invitation\?jeton=([A-Za-z0-9_-]{43})/.exec(rows[0]?.text ?? "");
  if (!match) throw new Error("pas de mail d'invitation");
  return match[1]!;
}

const invite = (email: string) =>
  request(server.url).post("/api/staff/invitations").set("Cookie", manager.cookie).send({ email });
const accept = (token: string) =>
  request(server.url)
    .post("/api/staff/invitation/accept")
    .send({ token, name: "Inès Technicienne", password: "motdepasse-ines" });
const cookieOf = (response: request.Response) =>
  (response.headers["set-cookie"] as unknown as string[]).map((line) => line.split(";")[0]).join("; ");
const queueWith = (cookie: string) => request(server.url).get("/api/sessions/queue").set("Cookie", cookie);

/** Signs up `email` as a stranger would (no proof of the address). */
async function registerAsAttacker(email: string): Promise<string> {
  await server.auth.api.signUpEmail({ body: { name: "Intrus", email, password: "motdepasse-intrus" } });
  return signIn(server.url, email, "motdepasse-intrus");
}

describe("issue 37 §3: an address registered by someone else", () => {
  it("is invited all the same, and the mailed link takes the account over: the earlier cookie is refused", async () => {
    const email = "ines37@atelier.example";
    const attacker = await registerAsAttacker(email);
    const socket = await connectSocket(server.url, attacker);
    const ended = nextEvent(socket, "auth:ended", 3_000);

    const invited = await invite(email);
    expect(invited.status).toBe(201);
    expect(JSON.stringify(invited.body)).not.toMatch(/promote/);

    const accepted = await accept(await invitationToken(email));
    expect(accepted.status).toBe(201);
    const me = await request(server.url).get("/api/me").set("Cookie", cookieOf(accepted));
    expect(me.body.user).toMatchObject({ email, name: "Inès Technicienne", isTechnician: true });
    expect((await queueWith(cookieOf(accepted))).status).toBe(200);

    await ended;
    socket.close();
    expect((await queueWith(attacker)).status).toBe(401);
    expect((await request(server.url).get("/api/me").set("Cookie", attacker)).status).toBe(401);
    await expect(signIn(server.url, email, "motdepasse-intrus")).rejects.toThrow(/401/);
  });

  it("registered after the invitation, it is taken over too (no more 409)", async () => {
    const email = "apres37@atelier.example";
    expect((await invite(email)).status).toBe(201);
    const attacker = await registerAsAttacker(email);
    const accepted = await accept(await invitationToken(email));
    expect(accepted.status).toBe(201);
    expect((await queueWith(cookieOf(accepted))).status).toBe(200);
    expect((await queueWith(attacker)).status).toBe(401);
  });

  it("a role change ends the account's sign-ins; promote refuses an unproven address without --force", async () => {
    const email = "promu37@atelier.example";
    const attacker = await registerAsAttacker(email);
    expect((await queueWith(attacker)).status).toBe(403);
    const command = (...argv: string[]) =>
      runUserCommand(argv, {
        db: database.db,
        env: parseEnv({ NODE_ENV: "test", DATA_DIR: database.dataDir, BETTER_AUTH_SECRET: TEST_AUTH_SECRET }),
        askPassword: async () => {
          throw new UsageError("mot de passe manquant");
        },
      });
    await expect(command("promote", email)).rejects.toThrow(/n'a jamais été prouvée.*vue « Équipe »/s);
    expect(await command("promote", email, "--force")).toBe(`${email} est maintenant technicien.`);
    expect((await queueWith(attacker)).status).toBe(401);
  });
});

describe("issue 37 §4: disabling a technician who is viewing an app's screen", () => {
  it("releases the app, ends the session as the technician leaving, and re-enabling rejoins nothing", async () => {
    const technician = await createAccount(server, database, "technician", true, "-37");
    const started = await startAppSession(server);
    expect(started.status).toBe(201);
    const { deviceToken, sessionCode } = started.body as DeviceSessionResponse;
    const app = await connectDevice(server.url, deviceToken);
    try {
      const joined = await request(server.url)
        .post("/api/sessions/join")
        .set("Cookie", technician.cookie)
        .send({ code: sessionCode });
      expect(joined.status).toBe(200);
      const demanded = new Promise<void>((resolve) =>
        app.on("device:screen", (demand) => (demand.active ? resolve() : undefined)),
      );
      app.emit("device:status", { injection: { ok: true }, screens: PAIR_FIELDS.screens, capture: { ok: true } });
      app.emit("device:consent", { allowed: true, view: true });
      await demanded;

      const release = nextDeviceEvent(app, "device:release");
      const ended = nextDeviceEvent(app, "device:ended");
      const disabled = await request(server.url)
        .post(`/api/staff/members/${technician.id}/disable`)
        .set("Cookie", manager.cookie);
      expect(disabled.status).toBe(200);
      await release;
      const [message] = await ended;
      expect(message).toMatch(/terminée/);

      const [session] = await database.db.select().from(sessions).where(eq(sessions.code, sessionCode));
      expect(session?.endTime).not.toBeNull();
      const events = await database.db
        .select()
        .from(sessionEvents)
        .where(eq(sessionEvents.sessionId, session!.id))
        .orderBy(asc(sessionEvents.createdAt));
      // The report's « Déroulement » reads « Session terminée par le technicien » (then the app's unpairing).
      const views = events.map((event) => toSessionEventView(event, session!));
      expect(views.filter((view) => view.kind === "ended")).toEqual([
        expect.objectContaining({ kind: "ended", actor: "technician" }),
      ]);

      const enabled = await request(server.url)
        .post(`/api/staff/members/${technician.id}/enable`)
        .set("Cookie", manager.cookie);
      expect(enabled.status).toBe(200);
      const again = await signIn(server.url, technician.email, technician.password);
      const active = await request(server.url).get("/api/sessions/active").set("Cookie", again);
      expect(active.body.session).toBeNull();
    } finally {
      app.close();
    }
  });
});
