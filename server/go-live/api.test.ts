/**
 * Issue 40 through HTTP with real accounts (PGlite): whether mail leaves the server (staff only), the
 * manager's test mail (sent to their own address through the fake SMTP server, « not configured » with the
 * `.eml` files, at most 5 an hour), and the « Mise en ligne » checklist (the manager only, following
 * « Boutique » and the backups' copies).
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { eq } from "drizzle-orm";
import express from "express";
import { pino } from "pino";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultShop, type ShopIdentity } from "#app/config/shop.ts";
import { users } from "#database/schema.ts";
import { roleFields } from "#server/access.ts";
import { createBackupRouter } from "#server/backup/api.ts";
import { parseEnv } from "#server/env.ts";
import { createMailService } from "#server/outbox/mail-service.ts";
import { createMailTransport } from "#server/outbox/transports.ts";
import { openTestDatabase, type TestDatabase } from "#tests/support/databases.ts";
import {
  createAccount,
  startRemoteSupportServer,
  TEST_AUTH_SECRET,
  type RemoteSupportServer,
  type TestAccount,
} from "#tests/support/remote-support.ts";
import { startSmtpSink, type SmtpSink } from "#tests/support/smtp.ts";
import { createGoLiveRouter } from "./api.ts";

const logger = pino({ level: "silent" });
let database: TestDatabase;
let server: RemoteSupportServer;
let sink: SmtpSink;
let manager: TestAccount;
let technician: TestAccount;
let customer: TestAccount;
let shop: ShopIdentity = defaultShop;

/** An app with the go-live and backup routers, mail through `transport` (SMTP to the sink, or files). */
function appWith(kind: "smtp" | "file", variables: Record<string, string> = {}) {
  const env = parseEnv({
    NODE_ENV: "test",
    PUBLIC_URL: server.url,
    DATA_DIR: database.dataDir,
    BETTER_AUTH_SECRET: TEST_AUTH_SECRET,
    LOG_LEVEL: "silent",
    ...variables,
  });
  const from = "Atelier <atelier@exemple.fr>";
  const transport = createMailTransport(
    kind === "smtp" ? { kind, url: sink.url, from } : { kind, folder: path.join(database.dataDir, "outbox"), from },
  );
  const mail = createMailService({ transport, logger, publicUrl: server.url, smtpUrl: env.SMTP_URL });
  const app = express();
  app.use("/api", createBackupRouter({ auth: server.auth, env }));
  app.use("/api", createGoLiveRouter({ auth: server.auth, env, mail, shop: { current: () => shop } }));
  return app;
}

beforeAll(async () => {
  database = await openTestDatabase("pglite");
  server = await startRemoteSupportServer(database);
  sink = await startSmtpSink();
  manager = await createAccount(server, database, "customer", false, "-gerant");
  await database.db.update(users).set(roleFields("manager")).where(eq(users.id, manager.id));
  technician = await createAccount(server, database, "technician", true);
  customer = await createAccount(server, database, "otherCustomer", false);
}, 60_000);

afterAll(async () => {
  await sink?.close();
  await server?.close();
  await database?.dispose();
});

describe("whether mail leaves the server", () => {
  it("is told to staff only: false with the .eml files, true with SMTP", async () => {
    const files = appWith("file");
    expect((await request(files).get("/api/mail/status")).status).toBe(401);
    expect((await request(files).get("/api/mail/status").set("Cookie", customer.cookie)).status).toBe(403);
    const told = await request(files).get("/api/mail/status").set("Cookie", technician.cookie);
    expect(told.status).toBe(200);
    expect(told.headers["cache-control"]).toBe("no-store");
    expect(told.body).toEqual({ configured: false });
    const smtp = await request(appWith("smtp")).get("/api/mail/status").set("Cookie", manager.cookie);
    expect(smtp.body).toEqual({ configured: true });
  });
});

describe("the test mail", () => {
  it("is the manager's: refused to technicians, sent to the manager's own address", async () => {
    const app = appWith("smtp");
    const refused = await request(app).post("/api/mail/test").set("Cookie", technician.cookie);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe("Réservé au gérant de l'atelier.");
    const before = sink.received.length;
    const sent = await request(app).post("/api/mail/test").set("Cookie", manager.cookie);
    expect(sent.status).toBe(200);
    expect(sent.body.outcome).toBe("sent");
    expect(sent.body.message).toContain(`E-mail de test envoyé à ${manager.email}.`);
    const received = await sink.waitFor(before + 1);
    expect(received.at(-1)?.to).toEqual([manager.email]);
  });

  it("says plainly that mail is not configured (409), then stops after 5 an hour (429, in French)", async () => {
    const app = appWith("file");
    const answers = [];
    for (let sent = 0; sent < 6; sent++)
      answers.push(await request(app).post("/api/mail/test").set("Cookie", manager.cookie));
    expect(answers.slice(0, 5).map((answer) => answer.status)).toEqual([409, 409, 409, 409, 409]);
    expect(answers[0]?.body.message).toMatch(/^L'envoi d'e-mails n'est pas configuré : aucun e-mail de test/);
    expect(answers[5]?.status).toBe(429);
    expect(Number(answers[5]?.headers["retry-after"])).toBeGreaterThan(0);
    expect(answers[5]?.body).toEqual({ message: "Trop d'e-mails de test d'affilée. Réessayez dans une heure." });
  });
});

describe("« Mise en ligne »", () => {
  it("is the manager's, and follows « Boutique », mail, the backups' copies and the AI provider", async () => {
    const fresh = appWith("file");
    expect((await request(fresh).get("/api/go-live").set("Cookie", technician.cookie)).status).toBe(403);
    const first = await request(fresh).get("/api/go-live").set("Cookie", manager.cookie);
    expect(first.status).toBe(200);
    expect(first.body.remaining).toBe(5);

    shop = { ...defaultShop, legal: { ...defaultShop.legal, entity: "Atelier Lyon SAS" } };
    const dir = path.join(database.dataDir, "backups");
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, `sauvegarde-${new Date().toISOString().slice(0, 10)}-030000.gz`), "sauvegarde");
    const ready = appWith("smtp", { SMTP_URL: sink.url, OPENAI_BASE_URL: "http://127.0.0.1:11434/v1" });
    expect((await request(ready).post("/api/backups/copied").set("Cookie", manager.cookie)).body).toMatchObject({
      lastCopyKind: "declared",
    });
    const after = await request(ready).get("/api/go-live").set("Cookie", manager.cookie);
    const done = Object.fromEntries(
      after.body.items.map((item: { id: string; done: boolean }) => [item.id, item.done]),
    );
    expect(done).toEqual({ legal: false, contact: false, mail: true, backups: true, assistant: true });
    const legal = after.body.items.find((item: { id: string }) => item.id === "legal");
    expect(legal.missing).not.toContain("Raison sociale");
    expect(legal.missing).toContain("Immatriculation (RCS)");
  });
});
