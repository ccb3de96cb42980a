/**
 * Issue 13 §6: what the server writes to its log. The app is the real one
 * (`createApp` on `startServices`, as `server/index.ts` wires them; Vite's
 * place taken by a pass-through since no page is requested), and its logger
 * writes into an array this file reads.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { RequestHandler } from "express";
import type { Connect } from "vite";
import request from "supertest";
import { afterAll, beforeAll, beforeEach, describe, expect, it, inject } from "vitest";
import { parseEnv } from "./env.ts";
import { outboxMessages } from "#database/schema.ts";
import { createScratchDatabase } from "#tests/support/postgres.ts";
import { DATABASE_KINDS, type DatabaseKind } from "#tests/support/databases.ts";
import { createApp, type RequestListener } from "./app.ts";
import { HONEYPOT_FIELD } from "#app/requests/schemas.ts";
import { createLogger, pseudonymizeIp, redactUrl, REDACTED, scrubText, serializeError } from "./logger.ts";
import { appServices, startServices, type Services } from "./services.ts";

type LogLine = {
  level: number;
  msg?: string;
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  err?: { type?: string; message?: string; code?: string; stack?: string; cause?: { type?: string; code?: string } };
};

describe("redactUrl", () => {
  it.each([
    [
      "/api/auth/reset-password/0123456789abcdefghijklmn?callbackURL=%2Fsoft-assist",
      `/api/auth/reset-password/${REDACTED}?callbackURL=${REDACTED}`,
    ],
    [
      "/api/auth/verify-email?token=eyJhbGciOi.abc&callbackURL=/",
      `/api/auth/verify-email?token=${REDACTED}&callbackURL=${REDACTED}`,
    ],
    ["/api/sessions/ACDE34/report", `/api/sessions/${REDACTED}/report`],
    ["/api/sessions/acde-34/events?x=1", `/api/sessions/${REDACTED}/events?x=${REDACTED}`],
    ["/api/sessions/history", "/api/sessions/history"],
    ["/api/sessions/join", "/api/sessions/join"],
    ["/contact", "/contact"],
    ["/assets/root-B3xk1Y9a.js", "/assets/root-B3xk1Y9a.js"],
    ["/soft-assist/nouveau-mot-de-passe?token=abc#fragment", `/soft-assist/nouveau-mot-de-passe?token=${REDACTED}`],
    ["/x/0123456789abcdefghijklmnopqrstuv", `/x/${REDACTED}`],
    ["/api//sessions/ACDE34", `/api//sessions/${REDACTED}`],
    ["/services/galaxy-z-fold-5-ecran-interne-repair", "/services/galaxy-z-fold-5-ecran-interne-repair"],
  ])("%s → %s", (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });
});

describe("serializeError", () => {
  it("keeps class, message, code and frames, and drops Drizzle's params and pg's detail", () => {
    const cause = Object.assign(new Error('new row for relation "contact_requests" violates check constraint "x"'), {
      code: "23514",
      detail: "Failing row contains (Léa Martin, lea@exemple.fr, Bonjour).",
    });
    class DrizzleQueryError extends Error {
      params = ["Léa Martin", "lea@exemple.fr", "Bonjour"];
      constructor() {
        super(
          "Failed query: insert into contact_requests values ($1, $2, $3)\nparams: Léa Martin,lea@exemple.fr,Bonjour",
        );
        this.cause = cause;
      }
    }
    const serialized = JSON.stringify(serializeError(new DrizzleQueryError()));
    for (const secret of ["Léa Martin", "lea@exemple.fr", "Bonjour"]) expect(serialized).not.toContain(secret);
    expect(JSON.parse(serialized)).toMatchObject({
      type: "DrizzleQueryError",
      message: expect.stringContaining("Failed query: insert into contact_requests"),
      stack: expect.stringContaining("logger.test.ts"),
      cause: { type: "Error", code: "23514" },
    });
  });

  it("scrubs e-mail addresses and long tokens from free text", () => {
    expect(scrubText("refusé pour paul@durand.fr avec 0123456789abcdefghijklmnop")).toBe(
      `refusé pour ${REDACTED} avec ${REDACTED}`,
    );
    expect(scrubText('violates check constraint "outbox_messages_status_check"')).toBe(
      'violates check constraint "outbox_messages_status_check"',
    );
    let parseError: unknown;
    try {
      JSON.parse("Léa Martin a écrit");
    } catch (error) {
      parseError = error;
    }
    expect(JSON.stringify(serializeError(parseError))).not.toContain("Martin");
  });
});

const visitor = {
  name: "Léa Martin-Testeuse",
  email: "lea.testeuse@exemple.fr",
  message: "Mon écran Quokka-7781 est fissuré.",
};

describe.each(DATABASE_KINDS)("the server's log on %s", (kind: DatabaseKind) => {
  let dataDir: string;
  let dropScratch: (() => Promise<void>) | undefined;
  let services: Services;
  let app: RequestListener;
  let publicUrl: string;
  const written: string[] = [];
  const lines = (): LogLine[] => written.map((line) => JSON.parse(line) as LogLine);
  const everything = () => written.join("");

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "atelier-logger-"));
    let databaseUrl: string | undefined;
    if (kind === "postgres") {
      const scratch = await createScratchDatabase(inject("postgresUrl"));
      databaseUrl = scratch.url;
      dropScratch = scratch.drop;
    }
    const env = parseEnv({
      NODE_ENV: "test",
      DATA_DIR: dataDir,
      LOG_LEVEL: "info",
      BETTER_AUTH_SECRET: "secret-de-test-suffisamment-long-pour-better-auth",
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    });
    publicUrl = env.PUBLIC_URL;
    const logger = createLogger(env, { write: (line: string) => void written.push(line) });
    services = await startServices(env, logger);
    const passThrough: RequestHandler = (_req, _res, next) => next();
    app = await createApp({
      env,
      logger,
      ...appServices(services),
      mode: "development",
      vite: {
        middlewares: passThrough as unknown as Connect.Server,
        loadBuild: () => Promise.reject(new Error("aucune page n'est demandée par ces tests")),
      },
    });
  });
  beforeEach(() => {
    written.length = 0;
  });
  afterAll(async () => {
    await services?.close();
    await dropScratch?.();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("logs a password-reset link's route, method and status, never its token nor the account's e-mail", async () => {
    await services.auth.api.signUpEmail({
      body: { name: visitor.name, email: visitor.email, password: "mot-de-passe-solide" },
    });
    await request(app)
      .post("/api/auth/request-password-reset")
      .set("Origin", publicUrl)
      .send({ email: visitor.email, redirectTo: "/soft-assist/nouveau-mot-de-passe" })
      .expect(200);
    const [mail] = await services.database.db
      .select()
      .from(outboxMessages)
      .where(sql`request_kind = 'password-reset'`);
    const link = new URL(/https?:\/\/\S+\/reset-password\/\S+/.exec(mail!.mail.text)![0]);
    const token = link.pathname.split("/").at(-1)!;
    expect(token.length).toBeGreaterThan(10);

    await request(app).get(`${link.pathname}${link.search}`).expect(302);

    const logged = lines().find((line) => line.req?.method === "GET" && line.res?.statusCode === 302);
    expect(logged?.req?.url).toBe(`/api/auth/reset-password/${REDACTED}?callbackURL=${REDACTED}`);
    expect(
      lines().some((line) => line.req?.method === "POST" && line.req.url === "/api/auth/request-password-reset"),
    ).toBe(true);
    expect(everything()).not.toContain(token);
    expect(everything()).not.toContain(visitor.email);
    expect(everything()).not.toContain(visitor.name);
  });

  // Issue 28 §13: a forged redirect is the visitor's text, repeatable at will: never an error line, never a line each.
  it("counts forged reset redirects without an error line or the forged address", async () => {
    const forged = "https://evil.example/voler-le-jeton";
    for (let i = 0; i < 5; i++)
      await request(app)
        .post("/api/auth/request-password-reset")
        .set("Origin", publicUrl)
        .send({ email: visitor.email, redirectTo: forged })
        .expect(403);
    expect(lines().filter((line) => line.level >= 50)).toEqual([]);
    expect(lines().filter((line) => line.msg?.startsWith("better-auth"))).toEqual([]);
    expect(everything()).not.toContain("evil.example");
  });

  it("logs session routes without their code, and a created session by its id", async () => {
    await request(app).get("/api/sessions/ABCDEF/report").expect(401);
    const refused = lines().find((line) => line.res?.statusCode === 401);
    expect(refused?.req).toMatchObject({ method: "GET", url: `/api/sessions/${REDACTED}/report` });

    const signIn = await request(app)
      .post("/api/auth/sign-in/email")
      .set("Origin", publicUrl)
      .send({ email: visitor.email, password: "mot-de-passe-solide" })
      .expect(200);
    const cookie = signIn.headers["set-cookie"] as unknown as string[];
    const created = await request(app)
      .post("/api/sessions")
      .set("Origin", publicUrl)
      .set("Cookie", cookie)
      .send({})
      .expect(201);
    const code = (created.body as { session: { code: string; id: string } }).session.code;
    await request(app).get(`/api/sessions/${code}/events`).set("Cookie", cookie).expect(200);

    expect(lines().find((line) => line.msg === "session créée")).toMatchObject({ sessionId: created.body.session.id });
    expect(
      lines().some((line) => line.req?.url === `/api/sessions/${REDACTED}/events` && line.res?.statusCode === 200),
    ).toBe(true);
    expect(everything()).not.toContain("ABCDEF");
    expect(everything()).not.toContain(code);
    expect(everything()).not.toContain(visitor.email);
  });

  it("logs a refused insert's error class and SQLSTATE, without the visitor's name, e-mail or message", async () => {
    // A constraint every new row breaks: the database refuses the insert with the row's values in its error.
    await services.database.db.execute(
      sql.raw("alter table contact_requests add constraint logger_test_refuse check (false) not valid"),
    );
    try {
      await request(app).post("/api/contact").set("Origin", publicUrl).send(visitor).expect(503);
    } finally {
      await services.database.db.execute(sql.raw("alter table contact_requests drop constraint logger_test_refuse"));
    }
    const failure = lines().find((line) => line.err !== undefined);
    expect(failure?.err).toMatchObject({ type: "DrizzleQueryError", cause: { code: "23514" } });
    expect(
      lines().some(
        (line) => line.req?.method === "POST" && line.req.url === "/api/contact" && line.res?.statusCode === 503,
      ),
    ).toBe(true);
    for (const value of [visitor.name, visitor.email, "Quokka-7781", "Léa"]) expect(everything()).not.toContain(value);
  });

  it("names a visitor refused by the honeypot by a pseudonym of their IP address, not the address", async () => {
    await request(app)
      .post("/api/contact")
      .set("Origin", publicUrl)
      .set("X-Forwarded-For", "198.51.100.23")
      .send({ ...visitor, [HONEYPOT_FIELD]: "https://spam.example" })
      .expect(400);
    const warning = lines().find((line) => line.msg === "demande refusée : champ piège rempli") as
      (LogLine & { ipHash?: string }) | undefined;
    expect(warning?.ipHash).toMatch(/^[\w-]{12}$/);
    expect([pseudonymizeIp("127.0.0.1"), pseudonymizeIp("::ffff:127.0.0.1"), pseudonymizeIp("::1")]).toContain(
      warning?.ipHash,
    );
    for (const address of ["127.0.0.1", "::1", "198.51.100.23"]) expect(everything()).not.toContain(address);
    expect(everything()).not.toContain(visitor.email);
  });

  it("logs a submission made after the database closed without the visitor's data", async () => {
    await services.database.close();
    await request(app).post("/api/contact").set("Origin", publicUrl).send(visitor).expect(503);
    expect(lines().some((line) => line.err !== undefined && line.level >= 50)).toBe(true);
    for (const value of [visitor.name, visitor.email, "Quokka-7781"]) expect(everything()).not.toContain(value);
  });
});
