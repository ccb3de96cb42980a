/**
 * Issue 18 §2 over HTTP (`api.ts`), on PGlite and PostgreSQL: every route
 * behind `repairs:manage` (401 signed out, 403 customers), a walk-in opened
 * and moved with a quote (201/200), French 400/404/409 refusals, and the
 * hostile inputs of issue 13 §7 (`tests/support/bad-inputs.ts`) on each body:
 * never a 5xx, nothing stored. Issue 28: a ticket in another account is not
 * taken from it (§3); of 100 claims sent at once, exactly the limit are
 * checked (§2). Issue 40: a ticket read by its code, its deposit's state
 * and accessories saved by staff only.
 */
import { createServer, type Server } from "node:http";
import express from "express";
import { pino } from "pino";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPAIR_MESSAGES, type RepairTicketResponse } from "#app/repairs/protocol.ts";
import { SESSION_MESSAGES } from "#app/remote-support/protocol.ts";
import { parseEnv } from "#server/env.ts";
import { accessOf } from "#server/access.ts";
import { createAuth, type Auth } from "#server/auth.ts";
import { authHandlers } from "#server/auth-http.ts";
import { requireSameOrigin } from "#server/security.ts";
import { badInputs } from "#tests/support/bad-inputs.ts";
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from "#tests/support/databases.ts";
import { freePort } from "#tests/support/postgres.ts";
import {
  createAccount,
  TEST_AUTH_SECRET,
  type RemoteSupportServer,
  type TestAccount,
} from "#tests/support/remote-support.ts";
import { createRepairsRouter } from "./api.ts";
import { createRepairService } from "./service.ts";

const logger = pino({ level: "silent" });
const WALK_IN = {
  modelName: "iPhone 12",
  repairLabel: "Écran",
  customerName: "Léa Martin",
  email: "lea@exemple.fr",
  phone: "06 12 34 56 78",
};

describe("repairs routes", () => {
  it("all ask for repairs:manage, but a customer's own list, which asks for a signed-in account", () => {
    const router = createRepairsRouter({ auth: {} as Auth, repairs: {} as never });
    const layers = (router as unknown as { stack: { route?: { path: string; stack: { handle: unknown }[] } }[] }).stack;
    const routes = layers.filter((layer) => layer.route);
    expect(routes).toHaveLength(9);
    for (const layer of routes)
      expect(layer.route!.stack.map((inner) => accessOf(inner.handle)).find(Boolean), layer.route!.path).toBe(
        layer.route!.path === "/repairs/mine" ? "signed-in" : "repairs:manage",
      );
  });
});

describe.each(DATABASE_KINDS)("repairs API on %s", (kind) => {
  let database: TestDatabase;
  let url: string;
  let httpServer: Server;
  let customer: TestAccount;
  let otherCustomer: TestAccount;
  let technician: TestAccount;

  const post = (cookie: string | undefined, path: string, body: unknown) => {
    const call = request(url).post(path).set("Origin", url);
    return (cookie ? call.set("Cookie", cookie) : call).send(body as object);
  };
  const count = async (table: string) =>
    ((await database.db.execute(`select count(*)::int as n from ${table}`)) as unknown as { rows: { n: number }[] })
      .rows[0]!.n;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    const env = parseEnv({ NODE_ENV: "test", PUBLIC_URL: url, DATA_DIR: database.dataDir, LOG_LEVEL: "silent" });
    const auth = createAuth({ db: database.db, env, logger, secret: TEST_AUTH_SECRET });
    const repairs = createRepairService({
      db: database.db,
      logger,
      mail: { shopEmail: "atelier@exemple.fr", messageIdDomain: "atelier.exemple", publicUrl: url },
    });
    const app = express();
    app.all("/api/auth/{*splat}", authHandlers(auth, { publicUrl: url }));
    app.use("/api", requireSameOrigin(url));
    app.use("/api", createRepairsRouter({ auth, repairs }));
    // Issue 28 §2: a service of its own for the parallel guesses (its limit in the table on PostgreSQL).
    const limited = createRepairService({
      db: database.db,
      logger,
      mail: { shopEmail: "atelier@exemple.fr", messageIdDomain: "atelier.exemple", publicUrl: url },
      rateLimit: {
        points: 10,
        durationSeconds: 900,
        store: database.pool ? { kind: "postgres", pool: database.pool } : undefined,
      },
    });
    app.use("/limite", createRepairsRouter({ auth, repairs: limited }));
    httpServer = createServer(app);
    await new Promise<void>((resolve) => httpServer.listen(port, "127.0.0.1", resolve));
    const server = { url, auth } as RemoteSupportServer;
    customer = await createAccount(server, database, "customer", false, `-${kind}`);
    otherCustomer = await createAccount(server, database, "otherCustomer", false, `-${kind}`);
    technician = await createAccount(server, database, "technician", true, `-${kind}`);
  });
  afterAll(async () => {
    httpServer?.closeAllConnections();
    await new Promise((resolve) => httpServer?.close(resolve));
    await database?.dispose();
  });

  // "In their account if they have one": added with the code and the contact, as on /suivi.
  it("lets a signed-in customer add a repair by its code and contact, and lists only theirs", async () => {
    const created = await post(technician.cookie, "/api/repairs", { ...WALK_IN, email: `mine-${kind}@exemple.fr` });
    const { ticket } = created.body as RepairTicketResponse;
    expect(await request(url).get("/api/repairs/mine")).toMatchObject({ status: 401 });
    expect((await request(url).get("/api/repairs/mine").set("Cookie", customer.cookie)).body).toEqual({ repairs: [] });
    expect(
      await post(customer.cookie, "/api/repairs/mine", { code: ticket.code, contact: "autre@exemple.fr" }),
    ).toMatchObject({
      status: 404,
      body: { message: REPAIR_MESSAGES.notFound },
    });
    expect(await post(customer.cookie, "/api/repairs/mine", { code: 42 })).toMatchObject({ status: 400 });
    const added = await post(customer.cookie, "/api/repairs/mine", { code: ticket.code, contact: "06 12 34 56 78" });
    expect(added).toMatchObject({
      status: 200,
      body: { repairs: [{ code: ticket.code, modelName: "iPhone 12", status: "received" }] },
    });
    expect((await request(url).get("/api/repairs/mine").set("Cookie", technician.cookie)).body).toEqual({
      repairs: [],
    });
  });

  // Issue 28 §3: a claim never takes a ticket out of another account.
  it("refuses a ticket another account follows, in French and naming no one; the owner's list is unchanged", async () => {
    const created = await post(technician.cookie, "/api/repairs", { ...WALK_IN, email: `pris-${kind}@exemple.fr` });
    const { ticket } = created.body as RepairTicketResponse;
    const proof = { code: ticket.code, contact: "06 12 34 56 78" };
    expect((await post(customer.cookie, "/api/repairs/mine", proof)).status).toBe(200);
    const before = (await request(url).get("/api/repairs/mine").set("Cookie", customer.cookie)).body;
    expect(before.repairs.map((line: { code: string }) => line.code)).toContain(ticket.code);

    const taken = await post(otherCustomer.cookie, "/api/repairs/mine", proof);
    expect(taken).toMatchObject({ status: 409, body: { message: REPAIR_MESSAGES.claimedElsewhere("01 99 00 12 34") } });
    expect(JSON.stringify(taken.body)).not.toContain(customer.name);
    expect((await request(url).get("/api/repairs/mine").set("Cookie", otherCustomer.cookie)).body).toEqual({
      repairs: [],
    });
    expect((await request(url).get("/api/repairs/mine").set("Cookie", customer.cookie)).body).toEqual(before);
    // The owner may add it again.
    expect(await post(customer.cookie, "/api/repairs/mine", proof)).toMatchObject({ status: 200, body: before });
  });

  // Issue 28 §2: each guess is counted before its lookup, so guesses sent at once cannot all be checked.
  it("checks exactly the limit of 100 claims sent at once from one address, the rest 429", async () => {
    const created = await post(technician.cookie, "/api/repairs", WALK_IN);
    const { ticket } = created.body as RepairTicketResponse;
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, index) =>
        post(otherCustomer.cookie, "/limite/repairs/mine", { code: ticket.code, contact: `devine${index}@exemple.fr` }),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect([
      statuses.filter((status) => status === 404).length,
      statuses.filter((status) => status === 429).length,
    ]).toEqual([10, 90]);
    const refused = answers.find((answer) => answer.status === 429)!;
    expect(refused.body).toEqual({ message: REPAIR_MESSAGES.tooManyAttempts(15) });
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(800);
  });

  it("answers 401 signed out and 403 to customers", async () => {
    expect(await request(url).get("/api/repairs")).toMatchObject({
      status: 401,
      body: { message: SESSION_MESSAGES.notSignedIn },
    });
    expect(await post(customer.cookie, "/api/repairs", WALK_IN)).toMatchObject({
      status: 403,
      body: { message: SESSION_MESSAGES.technicianOnly },
    });
  });

  it("opens a walk-in, lists it, changes its status and enters a quote", async () => {
    const created = await post(technician.cookie, "/api/repairs", { ...WALK_IN, priceEuros: 89 });
    expect(created.status).toBe(201);
    expect(created.headers["cache-control"]).toBe("no-store");
    const { ticket } = created.body as RepairTicketResponse;
    expect(ticket).toMatchObject({ status: "received", priceEuros: 89, events: [{ authorName: "Camille Tech" }] });

    const list = await request(url).get("/api/repairs").set("Cookie", technician.cookie);
    expect(list.body.tickets.map((line: { id: string }) => line.id)).toContain(ticket.id);
    expect(
      (await request(url).get(`/api/repairs/${ticket.id}`).set("Cookie", technician.cookie)).body.ticket.code,
    ).toBe(ticket.code);

    const moved = await post(technician.cookie, `/api/repairs/${ticket.id}/status`, {
      status: "diagnosis",
      note: "Nappe abîmée.",
    });
    expect(moved).toMatchObject({ status: 200, body: { ticket: { status: "diagnosis" } } });
    const quoted = await post(technician.cookie, `/api/repairs/${ticket.id}/quote`, {
      description: "Nappe en plus de l'écran",
      amountEuros: 35,
    });
    expect(quoted).toMatchObject({
      status: 200,
      body: { ticket: { status: "quote-pending", quote: { amountEuros: 35, decision: null } } },
    });
    expect(await post(technician.cookie, `/api/repairs/${ticket.id}/status`, { status: "received" })).toMatchObject({
      status: 409,
      body: { message: "Une réparation « Devis à valider » ne peut pas revenir à « Reçu »." },
    });
    // The customer accepts by phone: the technician records it, and is named as who decided.
    expect(await post(technician.cookie, `/api/repairs/${ticket.id}/decision`, { decision: "oui" })).toMatchObject({
      status: 400,
    });
    const decided = await post(technician.cookie, `/api/repairs/${ticket.id}/decision`, { decision: "accepted" });
    expect(decided).toMatchObject({
      status: 200,
      body: { ticket: { status: "repairing", quote: { decision: "accepted" }, quoteDecidedBy: "Camille Tech" } },
    });
    expect(await post(technician.cookie, `/api/repairs/${ticket.id}/decision`, { decision: "refused" })).toMatchObject({
      status: 409,
      body: { message: REPAIR_MESSAGES.noQuote },
    });
    expect(await post(technician.cookie, `/api/repairs/${ticket.id}/quote`, { amountEuros: 2.5 })).toMatchObject({
      status: 400,
      body: { fieldErrors: { description: "Veuillez indiquer la description du devis." } },
    });
  });

  // Issue 40: the dashboard's link names a ticket by its code; staff fill in the deposit's state afterwards.
  it("reads a ticket by its code, and saves its deposit's state and accessories for staff only", async () => {
    const created = await post(technician.cookie, "/api/repairs", WALK_IN);
    const { ticket } = created.body as RepairTicketResponse;
    const byCode = await request(url).get(`/api/repairs/${ticket.code}`).set("Cookie", technician.cookie);
    expect(byCode).toMatchObject({ status: 200, body: { ticket: { id: ticket.id, accessories: null } } });
    expect(await request(url).get(`/api/repairs/${ticket.code}`).set("Cookie", customer.cookie)).toMatchObject({
      status: 403,
    });

    const edit = { conditionNotes: "Écran fissuré", accessories: "Chargeur" };
    const path = `/api/repairs/${ticket.id}/drop-off`;
    expect(await post(undefined, path, edit)).toMatchObject({ status: 401 });
    expect(await post(customer.cookie, path, edit)).toMatchObject({
      status: 403,
      body: { message: SESSION_MESSAGES.technicianOnly },
    });
    expect(await post(technician.cookie, path, edit)).toMatchObject({
      status: 200,
      body: { ticket: { id: ticket.id, ...edit } },
    });
    expect(await post(technician.cookie, path, { ...edit, accessories: "x".repeat(501) })).toMatchObject({
      status: 400,
      body: { fieldErrors: { accessories: "Ce champ ne doit pas dépasser 500 caractères." } },
    });
    const read = await request(url).get(`/api/repairs/${ticket.id}`).set("Cookie", technician.cookie);
    expect(read.body.ticket).toMatchObject(edit);
  });

  it("answers 404 for an unknown or malformed id, 400 for bad JSON", async () => {
    for (const id of ["00000000-0000-4000-8000-000000000000", "pas-un-id", "%00"])
      expect(await request(url).get(`/api/repairs/${id}`).set("Cookie", technician.cookie)).toMatchObject({
        status: 404,
        body: { message: REPAIR_MESSAGES.ticketNotFound },
      });
    const bad = await request(url)
      .post("/api/repairs")
      .set("Origin", url)
      .set("Cookie", technician.cookie)
      .set("Content-Type", "application/json")
      .send("{ pas du json");
    expect(bad).toMatchObject({ status: 400, body: { message: SESSION_MESSAGES.badJson } });
  });

  it("never answers 5xx to hostile bodies, and stores nothing", async () => {
    const created = await post(technician.cookie, "/api/repairs", WALK_IN);
    const id = (created.body as RepairTicketResponse).ticket.id;
    // Cancelled: a body that got through validation would be refused by the rules (409), so nothing is stored.
    expect((await post(technician.cookie, `/api/repairs/${id}/status`, { status: "cancelled" })).status).toBe(200);
    const before = [await count("repair_tickets"), await count("repair_ticket_events")];
    const attempts = badInputs([
      { name: "POST /api/repairs", path: "/api/repairs", caller: "technician", valid: WALK_IN },
      {
        name: "POST /api/repairs/:id/status",
        path: `/api/repairs/${id}/status`,
        caller: "technician",
        valid: { status: "received", note: "Une note" },
      },
      {
        name: "POST /api/repairs/:id/decision",
        path: `/api/repairs/${id}/decision`,
        caller: "technician",
        valid: { decision: "accepted" },
      },
      {
        name: "POST /api/repairs/:id/quote",
        path: `/api/repairs/${id}/quote`,
        caller: "technician",
        valid: { description: "Nappe", amountEuros: "35" },
      },
      {
        name: "POST /api/repairs/:id/drop-off",
        path: `/api/repairs/${id}/drop-off`,
        caller: "technician",
        valid: { conditionNotes: "Écran fissuré", accessories: "Chargeur" },
      },
    ]);
    const failures: string[] = [];
    for (const attempt of attempts) {
      const headers: Record<string, string> = { Origin: url, Cookie: technician.cookie };
      if (attempt.contentType !== undefined) headers["Content-Type"] = attempt.contentType;
      const response = await fetch(`${url}${attempt.path}`, { method: "POST", headers, body: attempt.body });
      const text = await response.text();
      if (response.status >= 500 || response.status < 400 || text.includes("    at "))
        failures.push(`${attempt.target} — ${attempt.input}: ${response.status}`);
      else if (response.status !== 413) expect(JSON.parse(text).message, attempt.input).toEqual(expect.any(String));
    }
    expect(failures).toEqual([]);
    expect([await count("repair_tickets"), await count("repair_ticket_events")]).toEqual(before);
    const read = await request(url).get(`/api/repairs/${id}`).set("Cookie", technician.cookie);
    expect(read.body.ticket).toMatchObject({ conditionNotes: null, accessories: null });
  });
});
