/**
 * Issue 18 §3 on the ticket, on PGlite and PostgreSQL: the price after the
 * bonus réparation shows only while the shop's setting is on, for a ticket
 * whose catalogue repair is eligible — booked from a catalogue price, or
 * typed at the counter in words that name one model and one repair, which
 * staff then see with its catalogue price.
 */
import { sql } from "drizzle-orm";
import { pino } from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { afterBonusText, bonusFor } from "#app/catalogue/bonus-reparation.ts";
import { DEFAULT_BOOKING_SETTINGS } from "#app/booking/settings.ts";
import { formatPrice, getModel } from "#app/catalogue/index.ts";
import type { AppDatabase } from "#database/connection.ts";
import { users } from "#database/schema.ts";
import { appointments, shopSettings } from "#database/schema-booking.ts";
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from "#tests/support/databases.ts";
import { createRepairService, type RepairService } from "./service.ts";

const MAIL = {
  shopEmail: "atelier@exemple.fr",
  messageIdDomain: "atelier.exemple",
  publicUrl: "https://atelier.exemple",
};
const CONTACT = { customerName: "Léa Martin", email: "lea@exemple.fr", phone: "0612345678" };
const SCREEN_BONUS = afterBonusText(119, bonusFor("iphone", "ecran")!.euros);

describe.each(DATABASE_KINDS)("the bonus on a ticket on %s", (kind) => {
  let database: TestDatabase;
  let db: AppDatabase;
  let repairs: RepairService;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    db = database.db;
  });
  afterAll(async () => database.dispose());
  beforeEach(async () => {
    await db.execute(
      sql.raw("truncate repair_tickets, repair_ticket_events, appointments, shop_settings, users cascade"),
    );
    await db.insert(users).values({ id: "tech", name: "Camille Tech", email: "camille@atelier.exemple" });
    repairs = createRepairService({ db, logger: pino({ level: "silent" }), mail: MAIL });
  });

  const booked = async (modelSlug: string, repairId: string, priceEuros: number | null) => {
    const [row] = await db
      .insert(appointments)
      .values({
        startsAt: new Date("2026-12-01T09:00:00Z"),
        endsAt: new Date("2026-12-01T09:30:00Z"),
        modelSlug,
        modelName: "iPhone 13",
        repairId,
        repairLabel: "Écran",
        priceEuros,
        ...CONTACT,
      })
      .returning();
    return row!.id;
  };
  const setBonus = (on: boolean) =>
    db
      .insert(shopSettings)
      .values({ id: 1, booking: DEFAULT_BOOKING_SETTINGS, bonusReparation: on })
      .onConflictDoUpdate({ target: shopSettings.id, set: { bonusReparation: on } });
  /** Opens a ticket; resolves with a reader of its bonus line as staff see it. */
  const opened = async (input: Record<string, unknown>) => {
    const result = await repairs.open(input, "tech");
    if (!result.ok) throw new Error(result.message);
    return async () => {
      const read = await repairs.get(result.ticket.id);
      return read.ok ? read.ticket.afterBonus : "illisible";
    };
  };
  const bonusOf = async (input: Record<string, unknown>) => (await opened(input))();

  it("shows it only while the setting is on, for an eligible booked repair", async () => {
    const screen = await opened({ appointmentId: await booked("iphone-13", "ecran", 119) });
    expect(await screen()).toBeNull();
    await setBonus(true);
    expect(await screen()).toBe(SCREEN_BONUS);
    expect(await bonusOf({ appointmentId: await booked("iphone-13", "vitre-arriere", 89) })).toBeNull();
    expect(await bonusOf({ appointmentId: await booked("iphone-13", "ecran", null) })).toBeNull();
    await setBonus(false);
    expect(await screen()).toBeNull();
  });

  it("shows it for a walk-in whose typed model and repair name an eligible catalogue repair", async () => {
    await setBonus(true);
    const walkIn = (modelName: string, repairLabel: string, priceEuros?: string) =>
      bonusOf({ modelName, repairLabel, ...CONTACT, ...(priceEuros ? { priceEuros } : {}) });
    expect(await walkIn("iPhone 13", "Écran", "119")).toBe(SCREEN_BONUS);
    expect(await walkIn("iphone 13", "vitre cassée", "119")).toBe(SCREEN_BONUS);
    // No price announced, another repair, a model the catalogue lacks or words that name none: no line.
    expect(await walkIn("iPhone 13", "Écran")).toBeNull();
    expect(await walkIn("iPhone 13", "Vitre arrière", "89")).toBeNull();
    expect(await walkIn("iPhone 7", "Écran", "79")).toBeNull();
    expect(await walkIn("Ordinateur portable", "Ne démarre plus", "60")).toBeNull();
  });

  it("shows staff the catalogue entry a walk-in was matched to, with its price", async () => {
    const screen = getModel("iphone-13")!.model.repairs.find((repair) => repair.id === "ecran")!;
    const matched = await repairs.open({ modelName: "iphone 13", repairLabel: "vitre cassée", ...CONTACT }, "tech");
    expect(matched.ok && matched.ticket.catalogue).toEqual({
      model: "iPhone 13",
      repair: "Écran",
      price: formatPrice(screen.euros),
    });
    const unmatched = await repairs.open({ modelName: "PC portable", repairLabel: "Clavier", ...CONTACT }, "tech");
    expect(unmatched.ok && unmatched.ticket.catalogue).toBeNull();
  });
});
