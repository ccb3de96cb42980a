/**
 * Issue 40, mail honesty in « Équipe »: when mail does not leave the server the invitation's answer says
 * plainly it was not sent and gives the manager (only them) the working link, never written to the log;
 * when mail does, it says « Invitation envoyée » and carries no link. The password reset says the same.
 */
import { eq } from "drizzle-orm";
import express from "express";
import { pino } from "pino";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STAFF_MESSAGES } from "#app/staff/protocol.ts";
import { users } from "#database/schema.ts";
import { roleFields } from "#server/access.ts";
import { openTestDatabase, type TestDatabase } from "#tests/support/databases.ts";
import {
  createAccount,
  startRemoteSupportServer,
  type RemoteSupportServer,
  type TestAccount,
} from "#tests/support/remote-support.ts";
import { createStaffRouter } from "./api.ts";
import { createStaffService } from "./service.ts";

let database: TestDatabase;
let server: RemoteSupportServer;
let manager: TestAccount;
let technician: TestAccount;
const logged: string[] = [];

/** The staff routes of a server whose mail is (or is not) configured, logging into `logged`. */
function staffApp(mailConfigured: boolean) {
  const logger = pino({ level: "info" }, { write: (line: string) => void logged.push(line) });
  const staff = createStaffService({
    db: database.db,
    auth: server.auth,
    logger,
    publicUrl: server.url,
    mailConfigured,
  });
  const app = express();
  app.use("/api", createStaffRouter({ auth: server.auth, staff }));
  return app;
}

beforeAll(async () => {
  database = await openTestDatabase("pglite");
  server = await startRemoteSupportServer(database);
  manager = await createAccount(server, database, "customer", false, "-gerant");
  await database.db.update(users).set(roleFields("manager")).where(eq(users.id, manager.id));
  technician = await createAccount(server, database, "technician", true);
}, 60_000);

afterAll(async () => {
  await server?.close();
  await database?.dispose();
});

describe("an invitation without a way out for mail", () => {
  it("says it was not sent and gives the manager a link that works, kept out of the log", async () => {
    const answer = await request(staffApp(false))
      .post("/api/staff/invitations")
      .set("Cookie", manager.cookie)
      .send({ email: "nouvelle.technicienne@exemple.fr" });
    expect(answer.status).toBe(201);
    expect(answer.body.mailSent).toBe(false);
    expect(answer.body.message).toBe(STAFF_MESSAGES.invitedNoMail);
    expect(answer.body.message).toMatch(/^L'envoi d'e-mails n'est pas configuré : l'invitation n'a pas été envoyée\./);
    const link = new URL(answer.body.link);
    expect(link.origin).toBe(server.url);
    expect(link.pathname).toBe("/soft-assist/invitation");
    const token = link.searchParams.get("jeton") ?? "";
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(logged.join("")).not.toContain(token);

    const check = await request(staffApp(false)).post("/api/staff/invitation/check").send({ token });
    expect(check.status).toBe(200);
    expect(check.body).toEqual({ email: "nouvelle.technicienne@exemple.fr" });
  });

  it("says the reset link was not sent either", async () => {
    const answer = await request(staffApp(false))
      .post(`/api/staff/members/${technician.id}/password-reset`)
      .set("Cookie", manager.cookie);
    expect(answer.status).toBe(200);
    expect(answer.body.message).toMatch(
      /^L'envoi d'e-mails n'est pas configuré : le lien de réinitialisation n'a pas été envoyé/,
    );
  });
});

describe("an invitation with mail configured", () => {
  it("says « Invitation envoyée » and carries no link", async () => {
    const answer = await request(staffApp(true))
      .post("/api/staff/invitations")
      .set("Cookie", manager.cookie)
      .send({ email: "autre.technicien@exemple.fr" });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ mailSent: true, message: "Invitation envoyée. Le lien est valable 7 jours." });
    expect(answer.body).not.toHaveProperty("link");
  });
});
