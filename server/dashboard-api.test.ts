/**
 * Issue 40 through HTTP, on each database: « Demandes » marked « Traité » (who and when in one row, the first
 * kept, « Remettre à traiter » back), untreated first in the list, the French refusals (404 unknown id, 400 bad
 * body, 401, 403 for customers), and the dashboard tabs' counts (appointments still to confirm, quotes waiting
 * for the customer's answer, requests not treated).
 */
import { eq, sql } from "drizzle-orm";
import request from "supertest";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { TREATMENT_MESSAGES } from "#app/requests/treatment.ts";
import type { RequestView } from "#app/requests/views.ts";
import { contactRequests, quoteRequests } from "#database/schema.ts";
import { appointments } from "#database/schema-booking.ts";
import { repairTickets } from "#database/schema-repairs.ts";
import { requestTreatments } from "#database/schema-requests.ts";
import { DATABASE_KINDS, emptyTables, openTestDatabase, type TestDatabase } from "#tests/support/databases.ts";
import {
  createAccounts,
  startRemoteSupportServer,
  type RemoteSupportServer,
  type Role,
  type TestAccount,
} from "#tests/support/remote-support.ts";

const HOUR = 3_600_000;

describe.each(DATABASE_KINDS)("the dashboard's routes on %s (issue 40)", (kind) => {
  let database: TestDatabase;
  let server: RemoteSupportServer;
  let accounts: Record<Role, TestAccount>;

  const as = (who: Role | "anonymous", method: "get" | "post", path: string) => {
    const call = request(server.url)[method](path);
    return who === "anonymous" ? call : call.set("Cookie", accounts[who].cookie);
  };
  const treat = (who: Role | "anonymous", id: string, body: object) =>
    as(who, "post", `/api/requests/${id}/treatment`).send(body);
  const list = async (): Promise<RequestView[]> => (await as("technician", "get", "/api/requests")).body.requests;
  const counts = async () => (await as("technician", "get", "/api/dashboard/counts")).body;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    server = await startRemoteSupportServer(database);
    accounts = await createAccounts(server, database);
  });
  beforeEach(async () => {
    await emptyTables(database.db);
    await database.db.delete(appointments);
    await database.db.delete(repairTickets);
  });
  afterAll(async () => {
    await server?.close();
    await database?.dispose();
  });

  /** A contact message `minutesAgo` old, straight into the table (the form is `requests.ts`'s test). */
  async function contact(name: string, minutesAgo: number): Promise<string> {
    const [row] = await database.db
      .insert(contactRequests)
      .values({
        name,
        email: "visiteur@exemple.fr",
        message: "Bonjour",
        createdAt: new Date(Date.now() - minutesAgo * 60_000),
      })
      .returning();
    return row!.id;
  }
  async function quote(companyName: string): Promise<string> {
    const [row] = await database.db
      .insert(quoteRequests)
      .values({
        companyName,
        contactName: "Paul Durand",
        email: "paul@durand.fr",
        phone: "01 23 45 67 89",
        description: "Un site vitrine.",
        domain: "durand",
        emailOption: "mail-10",
        budget: "1 500 €",
      })
      .returning();
    return row!.id;
  }

  it("marks a request « Traité » with who and when, lists it after the untreated ones, and puts it back", async () => {
    const older = await contact("Léa", 30);
    const newer = await contact("Hugo", 10);
    const quoted = await quote("Boulangerie Durand");
    expect((await list()).map((item) => item.id)).toEqual([quoted, newer, older]);

    const before = Date.now();
    const marked = await treat("technician", newer, { kind: "contact", treated: true });
    expect(marked.status).toBe(200);
    expect(marked.headers["cache-control"]).toBe("no-store");
    expect(marked.body.request).toMatchObject({ id: newer, kind: "contact", treated: { byName: "Camille Tech" } });
    expect(Date.parse(marked.body.request.treated.at)).toBeGreaterThanOrEqual(before - 5_000);
    const [stored] = await database.db.select().from(requestTreatments);
    expect(stored).toMatchObject({ contactRequestId: newer, quoteRequestId: null, treatedBy: accounts.technician.id });

    // Untreated first, newest first in each group.
    expect((await list()).map((item) => item.id)).toEqual([quoted, older, newer]);
    expect((await counts()).untreatedRequests).toBe(2);

    // Another technician marking it again keeps the first who and when.
    const again = await treat("otherTechnician", newer, { kind: "contact", treated: true });
    expect(again.status).toBe(200);
    expect(again.body.request.treated).toEqual(marked.body.request.treated);
    expect(await database.db.select().from(requestTreatments)).toHaveLength(1);

    const back = await treat("otherTechnician", newer, { kind: "contact", treated: false });
    expect(back.status).toBe(200);
    expect(back.body.request.treated).toBeNull();
    expect(await database.db.select().from(requestTreatments)).toHaveLength(0);
    expect((await counts()).untreatedRequests).toBe(3);

    // A quote request the same way.
    const quoteMarked = await treat("technician", quoted, { kind: "quote", treated: true });
    expect(quoteMarked.body.request).toMatchObject({ kind: "quote", companyName: "Boulangerie Durand" });
    expect(quoteMarked.body.request.treated.byName).toBe("Camille Tech");
  });

  it("answers 404 in French for an unknown, malformed or other-kind id, and stores nothing", async () => {
    const id = await contact("Léa", 1);
    for (const [path, body] of [
      ["00000000-0000-4000-8000-000000000000", { kind: "contact", treated: true }],
      ["pas-un-identifiant", { kind: "contact", treated: true }],
      [id, { kind: "quote", treated: true }],
    ] as const) {
      const response = await treat("technician", path, body);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ message: TREATMENT_MESSAGES.notFound });
    }
    expect(await database.db.select().from(requestTreatments)).toHaveLength(0);
  });

  it("answers 400 in French for a body that is not { kind, treated }, and stores nothing", async () => {
    const id = await contact("Léa", 1);
    for (const body of [
      {},
      { kind: "contact" },
      { kind: "contact", treated: "oui" },
      { kind: "autre", treated: true },
    ]) {
      const response = await treat("technician", id, body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ message: TREATMENT_MESSAGES.badBody });
    }
    const extra = await treat("technician", id, { kind: "contact", treated: true, treatedBy: "quelqu'un" });
    expect(extra.status).toBe(400);
    const notJson = await as("technician", "post", `/api/requests/${id}/treatment`)
      .set("Content-Type", "application/json")
      .send("{");
    expect(notJson.status).toBe(400);
    expect(await database.db.select().from(requestTreatments)).toHaveLength(0);
  });

  it("is staff's only: 401 signed out, 403 for a customer, on both routes", async () => {
    const id = await contact("Léa", 1);
    expect((await treat("anonymous", id, { kind: "contact", treated: true })).status).toBe(401);
    const customer = await treat("customer", id, { kind: "contact", treated: true });
    expect(customer.status).toBe(403);
    expect(customer.body).toEqual({ message: "Réservé aux techniciens." });
    expect((await as("anonymous", "get", "/api/dashboard/counts")).status).toBe(401);
    expect((await as("customer", "get", "/api/dashboard/counts")).status).toBe(403);
    expect(await database.db.select().from(requestTreatments)).toHaveLength(0);
  });

  it("counts appointments still to confirm, quotes waiting for an answer and untreated requests", async () => {
    expect(await counts()).toEqual({ appointmentsToConfirm: 0, quotesAwaiting: 0, untreatedRequests: 0 });
    const appointment = (startsInHours: number, status: "requested" | "confirmed" | "cancelled") => ({
      startsAt: new Date(Date.now() + startsInHours * HOUR),
      endsAt: new Date(Date.now() + (startsInHours + 0.5) * HOUR),
      status,
      repairLabel: "Écran",
      customerName: "Inès Morel",
      email: "ines@exemple.fr",
      phone: "06 12 34 56 78",
    });
    await database.db
      .insert(appointments)
      .values([
        appointment(2, "requested"),
        appointment(30, "requested"),
        appointment(-2, "requested"),
        appointment(4, "confirmed"),
        appointment(5, "cancelled"),
      ]);
    const ticket = (code: string, status: "quote-pending" | "repairing", quoteDecision: "refused" | null) => ({
      trackingCode: code,
      modelName: "iPhone 13",
      repairLabel: "Écran",
      customerName: "Inès Morel",
      email: "ines@exemple.fr",
      phone: "06 12 34 56 78",
      status,
      quoteDescription: "Écran et nappe",
      quoteAmountEuros: 180,
      quoteDecision,
    });
    await database.db
      .insert(repairTickets)
      .values([
        ticket("AAAAAAAA", "quote-pending", null),
        ticket("BBBBBBBB", "quote-pending", "refused"),
        ticket("CCCCCCCC", "repairing", null),
      ]);
    const treated = await contact("Léa", 5);
    await contact("Hugo", 4);
    await quote("Boulangerie Durand");
    await treat("technician", treated, { kind: "contact", treated: true });

    const response = await as("technician", "get", "/api/dashboard/counts");
    expect(response.status).toBe(200);
    expect(response.headers["cache-control"]).toBe("no-store");
    expect(response.body).toEqual({ appointmentsToConfirm: 2, quotesAwaiting: 1, untreatedRequests: 2 });
  });

  it("keeps nothing half-stored: one request per row, gone with its request", async () => {
    const id = await contact("Léa", 1);
    const quoted = await quote("Durand");
    await expect(
      database.db.execute(
        sql`insert into request_treatments (contact_request_id, quote_request_id) values (${id}, ${quoted})`,
      ),
    ).rejects.toThrow();
    await expect(database.db.execute(sql`insert into request_treatments (treated_by) values (null)`)).rejects.toThrow();
    await treat("technician", id, { kind: "contact", treated: true });
    await database.db.delete(contactRequests).where(eq(contactRequests.id, id));
    expect(await database.db.select().from(requestTreatments)).toHaveLength(0);
  });
});
