/**
 * Issue 29, staff accounts through HTTP on a real server (PGlite): who may call `/api/staff`, the
 * invitation's lifecycle (single use, 7 days with a moved clock, replaced by a new invitation), the
 * invited technician joining a customer's session, disabling (sign-in refused in French, sign-in sessions
 * deleted, socket told `auth:ended` and disconnected) and the rules against disabling oneself or the last
 * active manager; bad bytes get 4xx.
 */
import { STAFF_MESSAGES } from "#app/staff/protocol.ts";
import { eq, sql } from "drizzle-orm";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authSessions, users } from "#database/schema.ts";
import { roleFields } from "#server/access.ts";
import { openTestDatabase, type TestDatabase } from "#tests/support/databases.ts";
import {
  connectSocket,
  createAccount,
  nextEvent,
  signIn,
  startRemoteSupportServer,
  type RemoteSupportServer,
  type TestAccount,
} from "#tests/support/remote-support.ts";

const DAY_MS = 24 * 3600 * 1000;
let database: TestDatabase;
let server: RemoteSupportServer;
let clock = Date.now();
let manager: TestAccount;
let technician: TestAccount;
let customer: TestAccount;

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
const accept = (token: string, name = "Inès Technicienne", password = "motdepasse-ines") =>
  request(server.url).post("/api/staff/invitation/accept").send({ token, name, password });

beforeAll(async () => {
  database = await openTestDatabase("pglite");
  server = await startRemoteSupportServer(database, {
    staff: { now: () => new Date(clock) },
    revalidateIntervalMs: 60_000,
  });
  manager = await createAccount(server, database, "customer", false, "-gerant");
  await database.db.update(users).set(roleFields("manager")).where(eq(users.id, manager.id));
  technician = await createAccount(server, database, "technician", true);
  customer = await createAccount(server, database, "otherCustomer", false);
}, 60_000);

afterAll(async () => {
  await server?.close();
  await database?.dispose();
});

describe("who may call /api/staff", () => {
  it("answers 401 signed out, 403 « Réservé au gérant de l'atelier. » to technicians and customers", async () => {
    expect((await request(server.url).get("/api/staff")).status).toBe(401);
    for (const account of [technician, customer]) {
      const response = await request(server.url).get("/api/staff").set("Cookie", account.cookie);
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ message: "Réservé au gérant de l'atelier." });
    }
    const listed = await request(server.url).get("/api/staff").set("Cookie", manager.cookie);
    expect(listed.status).toBe(200);
    expect(listed.headers["cache-control"]).toBe("no-store");
    const roles = Object.fromEntries(
      listed.body.members.map((m: { email: string; role: string }) => [m.email, m.role]),
    );
    expect(roles).toEqual({ [manager.email]: "manager", [technician.email]: "technician" });
  });

  it("shows the dashboard with the manager's permissions (GET /api/me)", async () => {
    const me = await request(server.url).get("/api/me").set("Cookie", manager.cookie);
    expect(me.body.user).toMatchObject({ isTechnician: true });
    expect(me.body.user.permissions).toEqual(expect.arrayContaining(["staff:manage", "session:join"]));
  });
});

describe("invitations", () => {
  it("lets the invited technician sign up once from the link, signed in, and join a customer's session", async () => {
    const email = "ines@atelier.example";
    const invited = await invite(email);
    expect(invited.status).toBe(201);
    expect(invited.body.invitation).toMatchObject({ email, expired: false });
    const token = await invitationToken(email);
    const check = await request(server.url).post("/api/staff/invitation/check").send({ token });
    expect(check.body).toEqual({ email });

    const created = await accept(token);
    expect(created.status).toBe(201);
    const cookie = created.headers["set-cookie"] as unknown as string[];
    const session = cookie.map((line) => line.split(";")[0]).join("; ");
    const me = await request(server.url).get("/api/me").set("Cookie", session);
    expect(me.body.user).toMatchObject({ email, name: "Inès Technicienne", isTechnician: true });

    const again = await accept(token);
    expect(again.status).toBe(410);
    expect(again.body.message).toBe("Ce lien d'invitation a déjà servi. Connectez-vous avec le compte créé.");

    const opened = await request(server.url).post("/api/sessions").set("Cookie", customer.cookie).send({});
    const joined = await request(server.url)
      .post("/api/sessions/join")
      .set("Cookie", session)
      .send({ code: opened.body.session.code });
    expect(joined.status).toBe(200);
    expect(joined.body.session.status).toBe("connected");
    await request(server.url).post(`/api/sessions/${opened.body.session.code}/disconnect`).set("Cookie", session);
  });

  it("expires after 7 days (moved clock), and a new invitation replaces the older link", async () => {
    const email = "expire@atelier.example";
    await invite(email);
    const first = await invitationToken(email);
    clock += 7 * DAY_MS + 1000;
    try {
      const expired = await request(server.url).post("/api/staff/invitation/check").send({ token: first });
      expect(expired.status).toBe(410);
      expect(expired.body.message).toMatch(/a expiré/);
      expect((await accept(first)).status).toBe(410);
      const listed = await request(server.url).get("/api/staff").set("Cookie", manager.cookie);
      expect(listed.body.invitations).toEqual([expect.objectContaining({ email, expired: true })]);

      await invite(email);
      const second = await invitationToken(email);
      expect(second).not.toBe(first);
      const replaced = await accept(first);
      expect(replaced.body.message).toMatch(/n'est pas valable/);
      const relisted = await request(server.url).get("/api/staff").set("Cookie", manager.cookie);
      expect(relisted.body.invitations).toEqual([expect.objectContaining({ email, expired: false })]);
      expect((await accept(second, "Jean Technicien")).status).toBe(201);
    } finally {
      clock = Date.now();
    }
  });

  it("refuses an address that already has an account, and bad input, in French with 4xx", async () => {
    const staff = await invite(technician.email);
    expect(staff.status).toBe(409);
    expect(staff.body.message).toBe("Cette adresse est déjà celle d'un compte de l'équipe.");
    // Issue 37 §3: a customer's address is invited (its link takes the account over), never « promote ».
    expect((await invite(customer.email)).status).toBe(201);
    const bad = await invite("pas-une-adresse");
    expect(bad.status).toBe(400);
    expect(bad.body.fieldErrors.email).toBe("L'adresse e-mail n'est pas valide.");
    const post = (path: string) => request(server.url).post(path).set("Cookie", manager.cookie);
    expect((await post("/api/staff/invitations").set("Content-Type", "application/json").send("{")).status).toBe(400);
    expect((await post("/api/staff/invitations").send("email=a@b.fr")).status).toBe(415);
    expect((await post("/api/staff/invitations").send({ email: "a".repeat(9000) })).status).toBe(413);
    const malformed = await request(server.url).post("/api/staff/invitation/check").send({ token: "\u0000" });
    expect(malformed.status).toBe(410);
    const noName = await request(server.url)
      .post("/api/staff/invitation/accept")
      .send({ token: "a".repeat(43), name: " ", password: "x" });
    expect(noName.status).toBe(400);
    expect((await post("/api/staff/invitations/pas-un-id").send()).status).toBe(404);
    const revoke = await request(server.url).delete("/api/staff/invitations/pas-un-id").set("Cookie", manager.cookie);
    expect(revoke.status).toBe(404);
    // Issue 37 §7: ids that could never exist are refused before any query, in French (`%00` answered 500).
    for (const id of ["%00", "%E2%80%AE", "a%0Ab", "x".repeat(65)]) {
      for (const action of ["disable", "enable", "password-reset"]) {
        const refused = await post(`/api/staff/members/${id}/${action}`).send();
        expect(refused.status, `${id} ${action}`).toBe(404);
        expect(refused.body).toEqual({ message: STAFF_MESSAGES.notFound });
      }
      const gone = await request(server.url).delete(`/api/staff/invitations/${id}`).set("Cookie", manager.cookie);
      expect(gone.status).toBe(404);
      expect(gone.body).toEqual({ message: STAFF_MESSAGES.invitationNotFound });
    }
  });
});

describe("disabling", () => {
  it("ends the sign-in sessions and sockets at once, and refuses sign-in in French until re-enabled", async () => {
    const account = await createAccount(server, database, "otherTechnician", true, "-desactive");
    const socket = await connectSocket(server.url, account.cookie);
    const ended = nextEvent(socket, "auth:ended", 2_000);
    const disconnected = new Promise<void>((resolve) => socket.once("disconnect", () => resolve()));
    const disabled = await request(server.url)
      .post(`/api/staff/members/${account.id}/disable`)
      .set("Cookie", manager.cookie);
    expect(disabled.status).toBe(200);
    expect(disabled.body.member.disabledAt).not.toBeNull();
    await ended;
    await disconnected;
    socket.close();
    expect(await database.db.select().from(authSessions).where(eq(authSessions.userId, account.id))).toEqual([]);
    expect((await request(server.url).get("/api/me").set("Cookie", account.cookie)).status).toBe(401);

    const refused = await fetch(`${server.url}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: server.url },
      body: JSON.stringify({ email: account.email, password: account.password }),
    });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({
      code: "COMPTE_DESACTIVE",
      message: "Ce compte est désactivé. Contactez le gérant de l'atelier.",
    });

    const enabled = await request(server.url)
      .post(`/api/staff/members/${account.id}/enable`)
      .set("Cookie", manager.cookie);
    expect(enabled.body.member.disabledAt).toBeNull();
    await signIn(server.url, account.email, account.password);
  });

  it("refuses disabling oneself and the last active manager; a customer is not a staff member", async () => {
    const self = await request(server.url)
      .post(`/api/staff/members/${manager.id}/disable`)
      .set("Cookie", manager.cookie);
    expect(self.status).toBe(403);
    expect(self.body.message).toBe("Vous ne pouvez pas désactiver votre propre compte.");
    const second = await createAccount(server, database, "customer", false, "-gerant2");
    await database.db.update(users).set(roleFields("manager")).where(eq(users.id, second.id));
    const disable = (who: TestAccount, target: string) =>
      request(server.url).post(`/api/staff/members/${target}/disable`).set("Cookie", who.cookie);
    expect((await disable(second, manager.id)).status).toBe(200);
    // The first manager's sessions are gone; the second is now the last active manager.
    expect((await request(server.url).get("/api/staff").set("Cookie", manager.cookie)).status).toBe(401);
    const enabled = await request(server.url)
      .post(`/api/staff/members/${manager.id}/enable`)
      .set("Cookie", second.cookie);
    expect(enabled.status).toBe(200);
    manager = { ...manager, cookie: await signIn(server.url, manager.email, manager.password) };
    expect((await disable(manager, second.id)).status).toBe(200);
    const notStaff = await disable(manager, customer.id);
    expect(notStaff.status).toBe(404);
  });

  it("sends a password-reset link through the outbox", async () => {
    const sent = await request(server.url)
      .post(`/api/staff/members/${technician.id}/password-reset`)
      .set("Cookie", manager.cookie);
    expect(sent.status).toBe(200);
    const { rows } = (await database.db.execute(
      sql`select count(*)::int as count from outbox_messages where request_kind = 'password-reset' and mail->>'to' = ${technician.email}`,
    )) as unknown as { rows: { count: number }[] };
    expect(rows[0]?.count).toBe(1);
  });
});
