/**
 * Issue 18 §2, /suivi's loader and action as React Router calls them, over
 * the real repair service on PGlite and PostgreSQL: `?code=` pre-fills; a
 * right code and contact show the ticket; a wrong code, a wrong contact or
 * both get the same 404 sentence; the quote buttons record the answer after
 * checking code and contact again, after a question (`confirm`) and only for
 * the amount read (issue 30); a body that is not a form gets a French
 * 415 (never the error page); nothing is cached. Issue 28 §2: of 100
 * guesses sent at once, exactly the limit are looked up.
 */
import { sql } from "drizzle-orm";
import { pino } from "pino";
import { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPAIR_MESSAGES } from "#app/repairs/protocol.ts";
import { repairTrackingContext } from "#app/repairs/tracking-context.ts";
import { requestOriginContext } from "#app/utils/server-context.ts";
import { users } from "#database/schema.ts";
import { repairTicketEvents } from "#database/schema-repairs.ts";
import { badInputs } from "#tests/support/bad-inputs.ts";
import { MEMORY_STORE, type RateLimitStore } from "#server/rate-limit.ts";
import { createRepairService, type RepairService } from "./service.ts";
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from "#tests/support/databases.ts";
import { action, loader, type TrackingActionData } from "#app/routes/suivi.tsx";

const logger = pino({ level: "silent" });

describe.each(DATABASE_KINDS)("/suivi on %s", (kind) => {
  let database: TestDatabase;
  let repairs: RepairService;
  let context: RouterContextProvider;
  let code: string;
  let id: string;

  /** Calls the action with `fields` as a URL-encoded form; resolves with the status, headers and data. */
  async function post(
    fields: Record<string, string> | string,
    contentType = "application/x-www-form-urlencoded",
    on: RouterContextProvider = context,
  ) {
    const body = typeof fields === "string" ? fields : new URLSearchParams(fields).toString();
    const request = new Request("http://localhost/suivi", {
      method: "POST",
      headers: { "Content-Type": contentType },
      body,
    });
    const answer = await action({ request, context: on, params: {} } as never);
    return {
      status: answer.init?.status ?? 200,
      headers: new Headers(answer.init?.headers),
      data: answer.data as TrackingActionData,
    };
  }

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    await database.db.execute(sql.raw("truncate repair_tickets, outbox_messages, users cascade"));
    await database.db.insert(users).values({ id: "tech", name: "Camille Tech", email: "camille@atelier.exemple" });
    repairs = createRepairService({
      db: database.db,
      logger,
      mail: { shopEmail: "atelier@exemple.fr", messageIdDomain: "atelier.exemple", publicUrl: "http://localhost" },
    });
    context = new RouterContextProvider();
    context.set(repairTrackingContext, repairs);
    context.set(requestOriginContext, { ip: "203.0.113.9" });
    const opened = await repairs.open(
      {
        modelName: "MacBook Air M1",
        repairLabel: "Clavier",
        customerName: "Léa Martin",
        email: "lea@exemple.fr",
        phone: "06 12 34 56 78",
      },
      "tech",
    );
    if (!opened.ok) throw new Error(opened.message);
    ({ code, id } = opened.ticket);
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it("pre-fills the code from ?code=, uncached", async () => {
    const answer = loader({ request: new Request("http://localhost/suivi?code=R7K3-QXMA") } as never);
    expect(answer.data).toEqual({ code: "R7K3-QXMA" });
    expect(new Headers(answer.init?.headers).get("cache-control")).toBe("no-store");
  });

  it("shows the ticket for the right code and contact, and one sentence for anything wrong", async () => {
    const found = await post({ code: code.toLowerCase().replace("-", " "), contact: "+33 6 12 34 56 78" });
    expect(found.status).toBe(200);
    expect(found.headers.get("cache-control")).toBe("no-store");
    expect(found.data.ticket).toMatchObject({ code, modelName: "MacBook Air M1", status: "received" });

    const wrongCode = code.startsWith("2") ? `3${code.slice(1)}` : `2${code.slice(1)}`;
    for (const fields of [
      { code: wrongCode, contact: "lea@exemple.fr" },
      { code, contact: "paul@exemple.fr" },
      { code: wrongCode, contact: "0700000000" },
    ]) {
      const refused = await post(fields);
      expect(refused.status).toBe(404);
      expect(refused.data).toMatchObject({ ticket: null, message: REPAIR_MESSAGES.notFound, tone: "error" });
    }
  });

  it("records the customer's answer to a pending quote", async () => {
    const quoted = await repairs.enterQuote(id, { description: "Nappe du clavier", amountEuros: 45 }, "tech");
    expect(quoted.ok).toBe(true);
    const shown = await post({ code, contact: "lea@exemple.fr" });
    expect(shown.data.ticket?.quote).toMatchObject({ amountEuros: 45, decision: null });
    // The buttons carry the code and contact again: a wrong contact is refused like a lookup.
    expect((await post({ code, contact: "paul@exemple.fr", decision: "accepted" })).status).toBe(404);
    const accepted = await post({ code, contact: "LEA@exemple.fr", decision: "accepted" });
    expect(accepted.status).toBe(200);
    expect(accepted.data).toMatchObject({
      message: REPAIR_MESSAGES.accepted,
      tone: "success",
      ticket: { status: "repairing", quote: { decision: "accepted" } },
    });
    const again = await post({ code, contact: "lea@exemple.fr", decision: "refused" });
    expect(again.data).toMatchObject({ message: REPAIR_MESSAGES.noQuote, ticket: { status: "repairing" } });
  });

  // Issue 30 §1: without JavaScript, the first click asks the question; the confirmation carries the amount read.
  it("asks before answering, and refuses an answer to an amount the quote no longer has", async () => {
    expect((await repairs.enterQuote(id, { description: "Batterie", amountEuros: 60 }, "tech")).ok).toBe(true);
    const before = await database.db.$count(repairTicketEvents);
    const asked = await post({ code, contact: "lea@exemple.fr", confirm: "accepted" });
    expect(asked.status).toBe(200);
    expect(asked.data).toMatchObject({ asking: "accepted", message: null, ticket: { quote: { decision: null } } });
    expect((await post({ code, contact: "lea@exemple.fr", confirm: "n'importe" })).data.asking).toBeNull();
    expect(await database.db.$count(repairTicketEvents)).toBe(before);

    // The shop replaces the quote while the customer reads the question.
    expect((await repairs.enterQuote(id, { description: "Batterie et nappe", amountEuros: 80 }, "tech")).ok).toBe(true);
    const stale = await post({ code, contact: "lea@exemple.fr", decision: "accepted", amountEuros: "60" });
    expect(stale.data).toMatchObject({
      message: REPAIR_MESSAGES.quoteChanged,
      tone: "error",
      asking: null,
      ticket: { status: "quote-pending", quote: { amountEuros: 80, decision: null } },
    });
    const accepted = await post({ code, contact: "lea@exemple.fr", decision: "accepted", amountEuros: "80" });
    expect(accepted.data).toMatchObject({
      message: REPAIR_MESSAGES.accepted,
      ticket: { status: "repairing", quote: { amountEuros: 80, decision: "accepted" } },
    });
  });

  it("never answers 5xx to hostile bodies (issue 13 §7), and records nothing", async () => {
    const before = await database.db.$count(repairTicketEvents);
    const attempts = badInputs([
      { name: "POST /suivi", path: "/suivi", caller: "anonymous", valid: { code, contact: "lea@exemple.fr" } },
      {
        name: "POST /suivi (quote answer)",
        path: "/suivi",
        caller: "anonymous",
        valid: { code, contact: "lea@exemple.fr", decision: "refused", amountEuros: "80" },
      },
    ]);
    // Each attempt may count as a failed lookup: a service of its own, without a limit that matters.
    const unlimited = new RouterContextProvider();
    unlimited.set(
      repairTrackingContext,
      createRepairService({
        db: database.db,
        logger,
        mail: { shopEmail: "atelier@exemple.fr", messageIdDomain: "atelier.exemple", publicUrl: "http://localhost" },
        rateLimit: { points: 1_000_000, durationSeconds: 60 },
      }),
    );
    unlimited.set(requestOriginContext, { ip: "203.0.113.10" });
    for (const attempt of attempts) {
      const headers: Record<string, string> = {};
      if (attempt.contentType !== undefined) headers["Content-Type"] = attempt.contentType;
      const request = new Request("http://localhost/suivi", { method: "POST", headers, body: attempt.body });
      const answer = await action({ request, context: unlimited, params: {} } as never);
      const status = answer.init?.status ?? 200;
      expect(status >= 500, `${attempt.target} — ${attempt.input}: ${status}`).toBe(false);
      expect((answer.data as TrackingActionData).message ?? "", attempt.input).not.toContain("    at ");
    }
    expect(await database.db.$count(repairTicketEvents)).toBe(before);
  });

  // Issue 28 §2: each guess is counted before its lookup, and a right pair gives its count back.
  it("looks up exactly the limit of 100 guesses sent at once from one address, then refuses even the right pair", async () => {
    const store: RateLimitStore = database.pool ? { kind: "postgres", pool: database.pool } : MEMORY_STORE;
    const limited = new RouterContextProvider();
    limited.set(
      repairTrackingContext,
      createRepairService({
        db: database.db,
        logger,
        mail: { shopEmail: "atelier@exemple.fr", messageIdDomain: "atelier.exemple", publicUrl: "http://localhost" },
        rateLimit: { points: 10, durationSeconds: 900, store },
      }),
    );
    limited.set(requestOriginContext, { ip: "198.51.100.28" });
    const form = "application/x-www-form-urlencoded";
    for (let index = 0; index < 3; index++)
      expect((await post({ code, contact: "lea@exemple.fr" }, form, limited)).status).toBe(200);
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, index) => post({ code, contact: `devine${index}@exemple.fr` }, form, limited)),
    );
    const looked = answers.filter((answer) => answer.status === 404);
    const refused = answers.filter((answer) => answer.status === 429);
    expect([looked.length, refused.length]).toEqual([10, 90]);
    expect(new Set(refused.map((answer) => answer.data.message))).toEqual(
      new Set([REPAIR_MESSAGES.tooManyAttempts(15)]),
    );
    expect(refused.every((answer) => Number(answer.headers.get("retry-after")) > 800)).toBe(true);
    expect((await post({ code, contact: "lea@exemple.fr" }, form, limited)).status).toBe(429);
  });

  it("answers a French 415 to a body that is not a form, and 400 to an empty one", async () => {
    const json = await post('{"code":"x"}', "application/json");
    expect(json.status).toBe(415);
    expect(json.data.message).toContain("Cette page n'accepte que son formulaire");
    expect((await post({ code: "", contact: "" })).status).toBe(400);
  });
});
