/**
 * Issue 18 §2, the repair-tracking rules (`service.ts`) on PGlite and
 * PostgreSQL: a ticket walks every status with one event and one customer
 * mail per step (outbox rows checked, warranty date once "Rendu"); refused
 * moves are 409s in French; a quote accepted on the tracking page records
 * "client" and when, and mails the shop; a refused one stays pending; the
 * page refuses a wrong code, a wrong contact or both with the same sentence,
 * and stops answering after too many failures from one address; a ticket
 * opened from an appointment copies it.
 */
import { asc, eq, sql } from "drizzle-orm";
import { pino } from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { REPAIR_MESSAGES, type StaffRepairTicket } from "#app/repairs/protocol.ts";
import { formatDay, warrantyEnd, type RepairStatus } from "#app/repairs/statuses.ts";
import type { AppDatabase } from "#database/connection.ts";
import { outboxMessages, users, type OutboxMail } from "#database/schema.ts";
import { appointments } from "#database/schema-booking.ts";
import { repairTicketEvents, repairTickets } from "#database/schema-repairs.ts";
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from "#tests/support/databases.ts";
import { createRepairService, type RepairService, type TicketResult } from "./service.ts";

const logger = pino({ level: "silent" });
const MAIL = {
  shopEmail: "atelier@exemple.fr",
  messageIdDomain: "atelier.exemple",
  publicUrl: "https://atelier.exemple",
};
const WALK_IN = {
  modelName: "iPhone 12",
  repairLabel: "Écran",
  customerName: "Léa Martin",
  email: "Lea.Martin@exemple.fr",
  phone: "06 12 34 56 78",
  conditionNotes: "Rayure au dos",
  accessories: "Coque",
  priceEuros: "89",
};
const ORIGIN = { ip: "203.0.113.7" };

function ticketOf(result: TicketResult): StaffRepairTicket {
  if (!result.ok) throw new Error(`refus inattendu : ${result.message}`);
  return result.ticket;
}

describe.each(DATABASE_KINDS)("repair tracking on %s", (kind) => {
  let database: TestDatabase;
  let db: AppDatabase;
  let repairs: RepairService;

  async function mails(): Promise<OutboxMail[]> {
    const rows = await db.select().from(outboxMessages).orderBy(asc(outboxMessages.createdAt));
    expect(rows.every((row) => row.requestKind === "repair")).toBe(true);
    return rows.map((row) => row.mail);
  }

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    db = database.db;
  });
  beforeEach(async () => {
    await db.execute(
      sql.raw("truncate repair_tickets, repair_ticket_events, outbox_messages, appointments, users cascade"),
    );
    await db.insert(users).values({ id: "tech", name: "Camille Tech", email: "camille@atelier.exemple" });
    repairs = createRepairService({ db, logger, mail: MAIL, rateLimit: { points: 5, durationSeconds: 900 } });
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it("walks a walk-in ticket through every status, one event and one mail per step", async () => {
    const opened = ticketOf(await repairs.open(WALK_IN, "tech"));
    expect(opened).toMatchObject({
      status: "received",
      modelName: "iPhone 12",
      priceEuros: 89,
      conditionNotes: "Rayure au dos",
      accessories: "Coque",
      email: "Lea.Martin@exemple.fr",
      warrantyUntil: null,
    });
    expect(opened.code).toMatch(/^[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$/);
    const id = opened.id;

    ticketOf(await repairs.changeStatus(id, { status: "diagnosis", note: "Écran et nappe à changer." }, "tech"));
    ticketOf(await repairs.enterQuote(id, { description: "Nappe de l'écran en plus", amountEuros: 35 }, "tech"));
    const accepted = await repairs.decideQuote(
      { code: opened.code.toLowerCase(), contact: "+33 6 12 34 56 78", decision: "accepted" },
      ORIGIN,
    );
    expect(accepted).toMatchObject({ ok: true, decision: "accepted", ticket: { status: "repairing" } });
    ticketOf(await repairs.changeStatus(id, { status: "ready", note: "" }, "tech"));
    const returned = ticketOf(await repairs.changeStatus(id, { status: "returned" }, "tech"));

    const statuses: RepairStatus[] = ["received", "diagnosis", "quote-pending", "repairing", "ready", "returned"];
    expect(returned.events.map((event) => event.status)).toEqual(statuses);
    expect(returned.events[0]!.authorName).toBe("Camille Tech");
    expect(returned.events[3]).toMatchObject({ note: "Devis accepté par le client.", authorName: null });
    const times = returned.events.map((event) => Date.parse(event.at));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(returned.quote).toMatchObject({ amountEuros: 35, decision: "accepted", decidedAt: expect.any(String) });
    expect(returned.quoteDecidedBy).toBe("client");

    const [row] = await db.select().from(repairTickets).where(eq(repairTickets.id, id));
    expect(row!.returnedAt).toBeInstanceOf(Date);
    const until = warrantyEnd(row!.returnedAt!);
    expect(returned.warrantyUntil).toBe(until);

    const sent = await mails();
    // Six steps to the customer, and the decision to the shop.
    const customer = sent.filter((mail) => mail.to === "Lea.Martin@exemple.fr");
    const shop = sent.filter((mail) => mail.to === MAIL.shopEmail);
    expect([customer.length, shop.length, sent.length]).toEqual([6, 1, 7]);
    expect(customer.map((mail) => mail.subject)).toEqual(
      ["Reçu", "Diagnostic", "Devis à valider", "En réparation", "Prêt à récupérer", "Rendu"].map(
        (label) => `Votre réparation ${opened.code} : ${label}`,
      ),
    );
    for (const mail of customer) {
      expect(mail.text).toContain(`https://atelier.exemple/suivi?code=${opened.code}`);
      expect(mail).toMatchObject({ template: null, templateParams: { to_email: "Lea.Martin@exemple.fr" } });
    }
    expect(customer[1]!.text).toContain("Message de l'atelier : Écran et nappe à changer.");
    expect(customer[2]!.text).toContain("Devis : Nappe de l'écran en plus");
    expect(customer[2]!.text).toContain("Montant : 35 € TTC");
    expect(customer[5]!.text).toContain(`jusqu'au ${formatDay(until)} inclus`);
    expect(shop[0]!.subject).toBe(`Devis accepté : réparation ${opened.code}`);
    expect(shop[0]!.text).toContain("Le client a accepté le devis");
  });

  it("refuses moves out of order with a French 409, and writes nothing", async () => {
    const { id } = ticketOf(await repairs.open(WALK_IN, "tech"));
    ticketOf(await repairs.changeStatus(id, { status: "repairing" }, "tech"));
    expect(await repairs.changeStatus(id, { status: "diagnosis" }, "tech")).toEqual({
      ok: false,
      reason: "conflict",
      message: "Une réparation « En réparation » ne peut pas revenir à « Diagnostic ».",
    });
    expect(await repairs.changeStatus(id, { status: "quote-pending" }, "tech")).toMatchObject({ reason: "conflict" });
    ticketOf(await repairs.changeStatus(id, { status: "cancelled", note: "Client parti." }, "tech"));
    expect(await repairs.changeStatus(id, { status: "ready" }, "tech")).toMatchObject({
      reason: "conflict",
      message: "Cette réparation est « Annulé » : son statut ne change plus.",
    });
    expect(await repairs.enterQuote(id, { description: "x", amountEuros: 1 }, "tech")).toMatchObject({
      reason: "conflict",
      message: REPAIR_MESSAGES.quoteNotAllowed,
    });
    expect(await db.$count(repairTicketEvents)).toBe(3);
    expect(await repairs.changeStatus(id, { status: "finished" }, "tech")).toMatchObject({ reason: "invalid" });
    expect(await repairs.changeStatus("pas-un-uuid", { status: "ready" }, "tech")).toMatchObject({
      reason: "not-found",
    });
    expect(await repairs.open({ ...WALK_IN, email: "pas-une-adresse" }, "tech")).toMatchObject({
      reason: "invalid",
      fieldErrors: { email: expect.stringContaining("adresse e-mail valide") },
    });
  });

  it("keeps a refused quote pending with its decision, for staff to choose the next step", async () => {
    const opened = ticketOf(await repairs.open(WALK_IN, "tech"));
    ticketOf(await repairs.enterQuote(opened.id, { description: "Carte mère", amountEuros: 240 }, "tech"));
    const refused = await repairs.decideQuote(
      { code: opened.code, contact: "lea.martin@EXEMPLE.fr", decision: "refused" },
      ORIGIN,
    );
    expect(refused).toMatchObject({ ok: true, ticket: { status: "quote-pending", quote: { decision: "refused" } } });
    // Answered already: a second answer is refused.
    expect(
      await repairs.decideQuote({ code: opened.code, contact: "0612345678", decision: "accepted" }, ORIGIN),
    ).toEqual({ ok: false, reason: "conflict", message: REPAIR_MESSAGES.noQuote });
    const [row] = await db.select().from(repairTickets).where(eq(repairTickets.id, opened.id));
    expect(row).toMatchObject({ quoteDecision: "refused", quoteDecidedBy: "client" });
    expect(row!.quoteDecidedAt).toBeInstanceOf(Date);
    expect(ticketOf(await repairs.changeStatus(opened.id, { status: "ready" }, "tech")).status).toBe("ready");
    expect((await mails()).some((mail) => mail.subject === `Devis refusé : réparation ${opened.code}`)).toBe(true);
    // The customer's mail of the refusal does not ask them to answer the quote again.
    const toCustomer = (await mails()).filter((mail) => mail.to === WALK_IN.email);
    const afterRefusal = toCustomer.find((mail) => mail.text.includes("Devis refusé par le client."));
    expect(afterRefusal?.text).not.toMatch(/Acceptez-le ou refusez-le/u);
    expect(toCustomer.filter((mail) => /Acceptez-le ou refusez-le/u.test(mail.text))).toHaveLength(1);
  });

  it("records an answer given to staff by phone, naming them, without mailing the shop", async () => {
    const opened = ticketOf(await repairs.open(WALK_IN, "tech"));
    expect(await repairs.recordDecision(opened.id, { decision: "accepted" }, "tech")).toMatchObject({
      reason: "conflict",
      message: REPAIR_MESSAGES.noQuote,
    });
    ticketOf(await repairs.enterQuote(opened.id, { description: "Batterie aussi", amountEuros: 49 }, "tech"));
    const refused = ticketOf(await repairs.recordDecision(opened.id, { decision: "refused" }, "tech"));
    expect(refused).toMatchObject({
      status: "quote-pending",
      quote: { decision: "refused" },
      quoteDecidedBy: "Camille Tech",
    });
    expect(refused.events.at(-1)).toMatchObject({
      note: "Devis refusé par téléphone, noté par l'atelier.",
      authorName: "Camille Tech",
    });
    const [row] = await db.select().from(repairTickets).where(eq(repairTickets.id, opened.id));
    expect(row!.quoteDecidedBy).toBe("tech");
    expect((await mails()).filter((mail) => mail.to === MAIL.shopEmail)).toEqual([]);
    // A new quote waits for a new answer.
    ticketOf(await repairs.enterQuote(opened.id, { description: "Batterie seule", amountEuros: 39 }, "tech"));
    expect(ticketOf(await repairs.recordDecision(opened.id, { decision: "accepted" }, "tech")).status).toBe(
      "repairing",
    );
  });

  it("refuses a wrong code, a wrong contact or both with one sentence, then limits the address", async () => {
    const opened = ticketOf(await repairs.open(WALK_IN, "tech"));
    const other = opened.code.startsWith("2") ? "3" + opened.code.slice(1) : "2" + opened.code.slice(1);
    const attempts = [
      { code: other, contact: WALK_IN.email },
      { code: opened.code, contact: "paul@exemple.fr" },
      { code: other, contact: "06 00 00 00 00" },
      { code: "n'importe quoi", contact: "0612345678" },
    ];
    for (const attempt of attempts)
      expect(await repairs.track(attempt, ORIGIN)).toEqual({
        ok: false,
        reason: "not-found",
        message: "Aucune réparation ne correspond à ce code et à ces coordonnées.",
      });
    const found = await repairs.track({ code: opened.code, contact: "06.12.34.56.78" }, ORIGIN);
    expect(found).toMatchObject({ ok: true, ticket: { code: opened.code, status: "received", quote: null } });
    // The public view names nobody.
    expect(JSON.stringify(found)).not.toMatch(/Léa|Lea|06 12|Rayure/);
    expect(await repairs.track({ code: "", contact: "" }, ORIGIN)).toMatchObject({ reason: "invalid" });

    // Five failures allowed per window: the fifth spends it, and then even the right pair is refused.
    expect(await repairs.track({ code: other, contact: WALK_IN.email }, ORIGIN)).toMatchObject({ reason: "not-found" });
    const limited = await repairs.track({ code: opened.code, contact: WALK_IN.email }, ORIGIN);
    expect(limited).toMatchObject({ ok: false, reason: "rate-limited", retryAfterSeconds: expect.any(Number) });
    expect(await repairs.track({ code: opened.code, contact: WALK_IN.email }, { ip: "198.51.100.1" })).toMatchObject({
      ok: true,
    });
  });

  // Anyone can sign up with any address: only a verified one links a ticket to an account.
  it("links a walk-in ticket to the account of its e-mail only once that address is verified", async () => {
    await db.insert(users).values({ id: "lea", name: "Léa", email: "lea.martin@exemple.fr" });
    const unverified = ticketOf(await repairs.open(WALK_IN, "tech"));
    await db.execute(sql`update users set email_verified = true where id = 'lea'`);
    const verified = ticketOf(await repairs.open(WALK_IN, "tech"));
    const owners = await db.select({ id: repairTickets.id, userId: repairTickets.userId }).from(repairTickets);
    expect(owners.find((row) => row.id === unverified.id)?.userId).toBeNull();
    expect(owners.find((row) => row.id === verified.id)?.userId).toBe("lea");
  });

  it("opens a ticket from an appointment with its model, repair, price and contact", async () => {
    const [appointment] = await db
      .insert(appointments)
      .values({
        startsAt: new Date("2026-12-01T09:00:00Z"),
        endsAt: new Date("2026-12-01T09:30:00Z"),
        modelName: "Galaxy S21",
        repairLabel: "Batterie",
        priceEuros: 69,
        customerName: "Paul Durand",
        email: "paul@exemple.fr",
        phone: "+33 7 11 22 33 44",
      })
      .returning();
    const ticket = ticketOf(await repairs.open({ appointmentId: appointment!.id, accessories: "Chargeur" }, "tech"));
    expect(ticket).toMatchObject({
      appointmentId: appointment!.id,
      modelName: "Galaxy S21",
      repairLabel: "Batterie",
      priceEuros: 69,
      customerName: "Paul Durand",
      email: "paul@exemple.fr",
      accessories: "Chargeur",
    });
    expect(await repairs.open({ appointmentId: appointment!.id }, "tech")).toEqual({
      ok: false,
      reason: "conflict",
      message: `Une réparation est déjà ouverte pour ce rendez-vous (code ${ticket.code}).`,
    });
    expect(await repairs.open({ appointmentId: "00000000-0000-4000-8000-000000000000" }, "tech")).toEqual({
      ok: false,
      reason: "not-found",
      message: REPAIR_MESSAGES.appointmentNotFound,
    });
    const open = await repairs.list();
    expect(open.ok && open.tickets.map((line) => line.id)).toEqual([ticket.id]);
    ticketOf(await repairs.changeStatus(ticket.id, { status: "cancelled" }, "tech"));
    expect(await repairs.list()).toEqual({ ok: true, tickets: [] });
    const all = await repairs.list({ all: true });
    expect(all.ok && all.tickets).toHaveLength(1);
  });

  it("opens one ticket when several technicians click « Ouvrir une réparation » at once", async () => {
    const [appointment] = await db
      .insert(appointments)
      .values({
        startsAt: new Date("2026-12-02T09:00:00Z"),
        endsAt: new Date("2026-12-02T09:30:00Z"),
        repairLabel: "Écran",
        customerName: "Paul Durand",
        email: "paul@exemple.fr",
        phone: "+33 7 11 22 33 44",
      })
      .returning();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => repairs.open({ appointmentId: appointment!.id }, "tech")),
    );
    expect(answers.filter((answer) => answer.ok)).toHaveLength(1);
    expect(answers.filter((answer) => !answer.ok).map((answer) => !answer.ok && answer.reason)).toEqual(
      Array(4).fill("conflict"),
    );
    const rows = await db.select().from(repairTickets).where(eq(repairTickets.appointmentId, appointment!.id));
    expect(rows).toHaveLength(1);
  });
});
