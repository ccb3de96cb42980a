/**
 * Issue 40, the price of a ticket once a quote is answered, on PGlite and
 * PostgreSQL: a 149 € quote accepted on `/suivi` (or by phone) for a repair
 * announced at 119 € makes 149 € the price everywhere the ticket shows it
 * (the staff view, the tracking page's lookup and the answer's own page,
 * the bonus line), with 119 € kept as `estimateEuros` (« Estimation
 * initiale »); a refused or pending quote changes nothing, and no mail
 * states the former price after the acceptance. A second quote entered
 * after an accepted one leaves the agreed price until it is accepted, and
 * both quotes stay in the steps (migration 0025, whose backfill of tickets
 * stored before it is run here too).
 */
import { readFile } from "node:fs/promises";
import { asc, eq, sql } from "drizzle-orm";
import { pino } from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_BOOKING_SETTINGS } from "#app/booking/settings.ts";
import { afterBonusText, bonusFor } from "#app/catalogue/bonus-reparation.ts";
import type { StaffRepairTicket } from "#app/repairs/protocol.ts";
import type { AppDatabase } from "#database/connection.ts";
import { outboxMessages, users } from "#database/schema.ts";
import { appointments, shopSettings } from "#database/schema-booking.ts";
import { repairTicketEvents, repairTickets } from "#database/schema-repairs.ts";
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from "#tests/support/databases.ts";
import { createRepairService, type RepairService, type TicketResult } from "./service.ts";

const MAIL = {
  shopEmail: "atelier@exemple.fr",
  messageIdDomain: "atelier.exemple",
  publicUrl: "https://atelier.exemple",
};
const ORIGIN = { ip: "203.0.113.9" };
const CONTACT = { customerName: "Inès Morel", email: "ines@exemple.fr", phone: "06 12 34 56 78" };

function ticketOf(result: TicketResult): StaffRepairTicket {
  if (!result.ok) throw new Error(`refus inattendu : ${result.message}`);
  return result.ticket;
}

describe.each(DATABASE_KINDS)("the price after a quote on %s", (kind) => {
  let database: TestDatabase;
  let db: AppDatabase;
  let repairs: RepairService;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    db = database.db;
  });
  afterAll(async () => database?.dispose());
  beforeEach(async () => {
    await db.execute(
      sql.raw(
        "truncate repair_tickets, repair_ticket_events, outbox_messages, appointments, shop_settings, users cascade",
      ),
    );
    await db.insert(users).values({ id: "tech", name: "Camille Tech", email: "camille@atelier.exemple" });
    repairs = createRepairService({ db, logger: pino({ level: "silent" }), mail: MAIL });
  });

  /** An iPhone 13 screen booked at `priceEuros`, opened, diagnosed and quoted `quote` €. */
  async function quoted(priceEuros: number | null, quote: number): Promise<StaffRepairTicket> {
    const [appointment] = await db
      .insert(appointments)
      .values({
        startsAt: new Date("2026-12-01T09:00:00Z"),
        endsAt: new Date("2026-12-01T09:30:00Z"),
        modelSlug: "iphone-13",
        modelName: "iPhone 13",
        repairId: "ecran",
        repairLabel: "Écran",
        priceEuros,
        ...CONTACT,
      })
      .returning();
    const { id } = ticketOf(await repairs.open({ appointmentId: appointment!.id }, "tech"));
    return ticketOf(await repairs.enterQuote(id, { description: "Écran et nappe", amountEuros: quote }, "tech"));
  }
  const tracked = async (code: string) => {
    const found = await repairs.track({ code, contact: CONTACT.email }, ORIGIN);
    if (!found.ok) throw new Error(found.message);
    return found.ticket;
  };

  it("shows the accepted quote's 149 € instead of the announced 119 €, kept as the initial estimate", async () => {
    const pending = await quoted(119, 149);
    expect(pending).toMatchObject({ priceEuros: 119, estimateEuros: null });
    expect(await tracked(pending.code)).toMatchObject({ priceEuros: 119, estimateEuros: null });

    const answered = await repairs.decideQuote(
      { code: pending.code, contact: CONTACT.email, decision: "accepted", amountEuros: 149 },
      ORIGIN,
    );
    expect(answered).toMatchObject({ ok: true, ticket: { status: "repairing", priceEuros: 149, estimateEuros: 119 } });
    expect(ticketOf(await repairs.get(pending.id))).toMatchObject({ priceEuros: 149, estimateEuros: 119 });
    expect(await tracked(pending.code)).toMatchObject({ priceEuros: 149, estimateEuros: 119 });

    // The bonus réparation is taken off the agreed price.
    await db.insert(shopSettings).values({ id: 1, booking: DEFAULT_BOOKING_SETTINGS, bonusReparation: true });
    const bonus = afterBonusText(149, bonusFor("iphone", "ecran")!.euros);
    expect((await tracked(pending.code)).afterBonus).toBe(bonus);
    expect(ticketOf(await repairs.get(pending.id)).afterBonus).toBe(bonus);

    // No mail after the acceptance states the former price.
    ticketOf(await repairs.changeStatus(pending.id, { status: "ready" }, "tech"));
    const rows = await db.select().from(outboxMessages).orderBy(asc(outboxMessages.createdAt));
    const after = rows.slice(rows.findIndex((row) => row.mail.subject.startsWith("Devis accepté")));
    expect(after.length).toBeGreaterThan(1);
    for (const { mail } of after) expect(mail.text).not.toMatch(/119/);
    expect(after[0]!.mail.text).toContain("Montant : 149 €");
  });

  it("counts an answer given by phone the same way", async () => {
    const pending = await quoted(119, 149);
    expect(ticketOf(await repairs.recordDecision(pending.id, { decision: "accepted" }, "tech"))).toMatchObject({
      priceEuros: 149,
      estimateEuros: 119,
    });
  });

  it("keeps the announced price after a refusal, and has no estimate to strike when none was announced", async () => {
    const refused = await quoted(119, 149);
    await repairs.decideQuote({ code: refused.code, contact: CONTACT.email, decision: "refused" }, ORIGIN);
    expect(ticketOf(await repairs.get(refused.id))).toMatchObject({ priceEuros: 119, estimateEuros: null });

    const diagnosis = await quoted(null, 80);
    expect(diagnosis).toMatchObject({ priceEuros: null, estimateEuros: null });
    ticketOf(await repairs.recordDecision(diagnosis.id, { decision: "accepted" }, "tech"));
    expect(await tracked(diagnosis.code)).toMatchObject({ priceEuros: 80, estimateEuros: null });

    const same = await quoted(119, 119);
    ticketOf(await repairs.recordDecision(same.id, { decision: "accepted" }, "tech"));
    expect(ticketOf(await repairs.get(same.id))).toMatchObject({ priceEuros: 119, estimateEuros: null });
  });

  it("keeps the accepted 149 € while a second quote of 199 € waits, both quotes in the steps", async () => {
    const first = await quoted(119, 149);
    ticketOf(await repairs.recordDecision(first.id, { decision: "accepted" }, "tech"));
    const second = ticketOf(
      await repairs.enterQuote(first.id, { description: "Batterie gonflée aussi", amountEuros: 199 }, "tech"),
    );
    expect(second).toMatchObject({
      status: "quote-pending",
      priceEuros: 149,
      priceFromQuote: true,
      estimateEuros: 119,
      quote: { description: "Batterie gonflée aussi", amountEuros: 199, decision: null },
    });
    const quotes = (steps: { status: string; quote: unknown }[]) =>
      steps.filter((step) => step.quote !== null).map((step) => [step.status, step.quote]);
    const sent149 = { description: "Écran et nappe", amountEuros: 149 };
    expect(quotes(second.events)).toEqual([
      ["quote-pending", sent149],
      ["repairing", sent149],
      ["quote-pending", { description: "Batterie gonflée aussi", amountEuros: 199 }],
    ]);
    expect(await tracked(first.code)).toMatchObject({ priceEuros: 149, priceFromQuote: true, estimateEuros: 119 });
    // Its mail says the amount replaces the agreed price rather than adding to it.
    const [quoteMail] = await db
      .select()
      .from(outboxMessages)
      .where(sql`${outboxMessages.mail}->>'text' like '%Montant : 199%'`);
    expect(quoteMail?.mail.text).toMatch(/ce montant devient le prix total de la réparation, à la place de 149\s€\./u);

    const accepted = await repairs.decideQuote(
      { code: first.code, contact: CONTACT.email, decision: "accepted", amountEuros: 199 },
      ORIGIN,
    );
    expect(accepted).toMatchObject({ ok: true, ticket: { status: "repairing", priceEuros: 199, estimateEuros: 119 } });
    if (accepted.ok) expect(quotes(accepted.ticket.events)).toHaveLength(4);
  });

  it("backfills tickets stored before migration 0025: the accepted amount as the price, the quote in its steps", async () => {
    const ticket = await quoted(119, 149);
    ticketOf(await repairs.recordDecision(ticket.id, { decision: "accepted" }, "tech"));
    // As they were stored before the migration: no agreed price, steps without their quote.
    await db.update(repairTickets).set({ agreedPriceEuros: null }).where(eq(repairTickets.id, ticket.id));
    await db
      .update(repairTicketEvents)
      .set({ quoteDescription: null, quoteAmountEuros: null })
      .where(eq(repairTicketEvents.ticketId, ticket.id));
    expect(ticketOf(await repairs.get(ticket.id))).toMatchObject({ priceEuros: 119, priceFromQuote: false });

    const migration = await readFile(new URL("../../drizzle/0025_repair_quote_history.sql", import.meta.url), "utf8");
    for (const statement of migration.split("--> statement-breakpoint")) {
      if (/^\s*(--[^\n]*\n\s*)*UPDATE/u.test(statement)) await db.execute(sql.raw(statement));
    }
    const after = ticketOf(await repairs.get(ticket.id));
    expect(after).toMatchObject({ priceEuros: 149, priceFromQuote: true, estimateEuros: 119 });
    expect(after.events.map((step) => [step.status, step.quote?.amountEuros ?? null])).toEqual([
      ["received", null],
      ["quote-pending", 149],
      ["repairing", 149],
    ]);
  });
});
