/**
 * Issue 40, « État au dépôt » and « Accessoires laissés » edited by staff
 * (`drop-off.ts` through the service), on PGlite and PostgreSQL: a ticket
 * opened from an appointment in one click starts without them; both are
 * saved in one write (a blank one cleared), with no step and no mail; a
 * refusal (too long, not a text, a closed ticket, an unknown id) is French
 * and stores neither value. Staff also reach a ticket by its tracking code.
 */
import { eq, sql } from "drizzle-orm";
import { pino } from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { REPAIR_MESSAGES, type StaffRepairTicket } from "#app/repairs/protocol.ts";
import type { AppDatabase } from "#database/connection.ts";
import { outboxMessages, users } from "#database/schema.ts";
import { appointments } from "#database/schema-booking.ts";
import { repairTicketEvents, repairTickets } from "#database/schema-repairs.ts";
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from "#tests/support/databases.ts";
import { createRepairService, type RepairService, type TicketResult } from "./service.ts";

const MAIL = {
  shopEmail: "atelier@exemple.fr",
  messageIdDomain: "atelier.exemple",
  publicUrl: "https://atelier.exemple",
};

function ticketOf(result: TicketResult): StaffRepairTicket {
  if (!result.ok) throw new Error(`refus inattendu : ${result.message}`);
  return result.ticket;
}

describe.each(DATABASE_KINDS)("the deposit's state and accessories on %s", (kind) => {
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
      sql.raw("truncate repair_tickets, repair_ticket_events, outbox_messages, appointments, users cascade"),
    );
    await db.insert(users).values({ id: "tech", name: "Camille Tech", email: "camille@atelier.exemple" });
    repairs = createRepairService({ db, logger: pino({ level: "silent" }), mail: MAIL });
  });

  /** A ticket opened from an appointment in one click, as the agenda's button does. */
  async function openedFromAppointment(): Promise<StaffRepairTicket> {
    const [appointment] = await db
      .insert(appointments)
      .values({
        startsAt: new Date("2026-12-01T09:00:00Z"),
        endsAt: new Date("2026-12-01T09:30:00Z"),
        modelSlug: "iphone-13",
        modelName: "iPhone 13",
        repairId: "ecran",
        repairLabel: "Écran",
        priceEuros: 119,
        customerName: "Inès Morel",
        email: "ines@exemple.fr",
        phone: "06 12 34 56 78",
      })
      .returning();
    return ticketOf(await repairs.open({ appointmentId: appointment!.id }, "tech"));
  }
  const stored = async (id: string) => (await db.select().from(repairTickets).where(eq(repairTickets.id, id)))[0]!;
  const counts = async () => [await db.$count(repairTicketEvents), await db.$count(outboxMessages)];

  it("fills in both on a ticket opened without them, then clears a blank one, with no step and no mail", async () => {
    const opened = await openedFromAppointment();
    expect(opened).toMatchObject({ conditionNotes: null, accessories: null });
    const before = await counts();

    const saved = ticketOf(
      await repairs.editDropOff(opened.id, {
        conditionNotes: "  Coin supérieur gauche fissuré\nRayures au dos  ",
        accessories: "Chargeur, coque bleue",
      }),
    );
    expect(saved).toMatchObject({
      conditionNotes: "Coin supérieur gauche fissuré\nRayures au dos",
      accessories: "Chargeur, coque bleue",
      status: "received",
    });
    expect(Date.parse(saved.updatedAt)).toBeGreaterThan(Date.parse(opened.updatedAt));
    expect(ticketOf(await repairs.get(opened.id))).toMatchObject({ accessories: "Chargeur, coque bleue" });
    expect(await counts()).toEqual(before);

    const cleared = ticketOf(
      await repairs.editDropOff(opened.id, { conditionNotes: "Rayures au dos", accessories: " " }),
    );
    expect(cleared).toMatchObject({ conditionNotes: "Rayures au dos", accessories: null });
    // The steps written after an edit still come after it, in order.
    const moved = ticketOf(await repairs.changeStatus(opened.id, { status: "diagnosis" }, "tech"));
    expect(Date.parse(moved.events.at(-1)!.at)).toBeGreaterThan(Date.parse(cleared.updatedAt));
  });

  it("refuses a value too long or not a text in French by its field, and stores neither value", async () => {
    const opened = await openedFromAppointment();
    ticketOf(await repairs.editDropOff(opened.id, { conditionNotes: "Rayé", accessories: "Coque" }));
    const before = await stored(opened.id);

    expect(
      await repairs.editDropOff(opened.id, { conditionNotes: "Écran fissuré", accessories: "x".repeat(501) }),
    ).toEqual({
      ok: false,
      reason: "invalid",
      message: "Ce champ ne doit pas dépasser 500 caractères.",
      fieldErrors: { accessories: "Ce champ ne doit pas dépasser 500 caractères." },
    });
    expect(
      await repairs.editDropOff(opened.id, { conditionNotes: "x".repeat(2001), accessories: "Chargeur" }),
    ).toMatchObject({
      reason: "invalid",
      // fr-FR groups thousands with a narrow no-break space.
      fieldErrors: { conditionNotes: expect.stringMatching(/^Ce champ ne doit pas dépasser 2\s000 caractères\.$/u) },
    });
    expect(await repairs.editDropOff(opened.id, { conditionNotes: 42, accessories: "Chargeur" })).toMatchObject({
      reason: "invalid",
      fieldErrors: { conditionNotes: "Ce champ doit être un texte." },
    });
    expect(await repairs.editDropOff(opened.id, ["Chargeur"])).toMatchObject({ reason: "invalid" });
    expect(await stored(opened.id)).toEqual(before);
  });

  it("keeps the record once the device is given back or the repair cancelled, and knows no other ticket", async () => {
    const opened = await openedFromAppointment();
    ticketOf(await repairs.editDropOff(opened.id, { conditionNotes: "Rayé", accessories: "Coque" }));
    ticketOf(await repairs.changeStatus(opened.id, { status: "returned" }, "tech"));
    const before = await stored(opened.id);
    expect(await repairs.editDropOff(opened.id, { conditionNotes: "Neuf", accessories: "" })).toEqual({
      ok: false,
      reason: "conflict",
      message: REPAIR_MESSAGES.dropOffClosed("Rendu"),
    });
    expect(await stored(opened.id)).toEqual(before);
    for (const id of ["00000000-0000-4000-8000-000000000000", "pas-un-id"])
      expect(await repairs.editDropOff(id, { accessories: "Coque" })).toMatchObject({ reason: "not-found" });
  });

  it("finds a ticket by its tracking code however staff type it", async () => {
    const opened = await openedFromAppointment();
    for (const key of [opened.code, opened.code.toLowerCase(), opened.code.replace("-", " ")])
      expect(ticketOf(await repairs.get(key)).id).toBe(opened.id);
    const other = opened.code.startsWith("2") ? `3${opened.code.slice(1)}` : `2${opened.code.slice(1)}`;
    for (const key of [other, "UZFD-GY5", "pas-un-code"])
      expect(await repairs.get(key)).toEqual({
        ok: false,
        reason: "not-found",
        message: REPAIR_MESSAGES.ticketNotFound,
      });
  });
});
