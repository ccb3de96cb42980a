/**
 * Issue 18 §3 on the ticket, on PGlite and PostgreSQL: the price after the
 * bonus réparation shows only while the shop's setting is on, and only for a
 * ticket opened from an appointment booked from an eligible catalogue price.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { afterBonusText, bonusFor } from "#app/catalogue/bonus-reparation.ts";
import { DEFAULT_BOOKING_SETTINGS } from "#app/booking/settings.ts";
import type { AppDatabase } from "#database/connection.ts";
import { appointments, shopSettings } from "#database/schema-booking.ts";
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from "#tests/support/databases.ts";
import { ticketBonus } from "./bonus.ts";

describe.each(DATABASE_KINDS)("the bonus on a ticket on %s", (kind) => {
  let database: TestDatabase;
  let db: AppDatabase;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    db = database.db;
  });
  afterAll(async () => database.dispose());
  beforeEach(async () => {
    await db.execute(sql.raw("truncate appointments, shop_settings cascade"));
  });

  const booked = async (modelSlug: string, repairId: string) => {
    const [row] = await db
      .insert(appointments)
      .values({
        startsAt: new Date("2026-12-01T09:00:00Z"),
        endsAt: new Date("2026-12-01T09:30:00Z"),
        modelSlug,
        repairId,
        repairLabel: "Écran",
        customerName: "Léa Martin",
        email: "lea@exemple.fr",
        phone: "0612345678",
      })
      .returning();
    return row!.id;
  };
  const setBonus = (on: boolean) =>
    db
      .insert(shopSettings)
      .values({ id: 1, booking: DEFAULT_BOOKING_SETTINGS, bonusReparation: on })
      .onConflictDoUpdate({
        target: shopSettings.id,
        set: { bonusReparation: on },
      });

  it("shows it only while the setting is on, for an eligible booked repair", async () => {
    const screen = await booked("iphone-13", "ecran");
    const backGlass = await booked("iphone-13", "vitre-arriere");
    expect(await ticketBonus(db, { priceEuros: 119, appointmentId: screen })).toBeNull();
    await setBonus(true);
    expect(await ticketBonus(db, { priceEuros: 119, appointmentId: screen })).toBe(
      afterBonusText(119, bonusFor("iphone", "ecran")!.euros),
    );
    expect(await ticketBonus(db, { priceEuros: 89, appointmentId: backGlass })).toBeNull();
    expect(await ticketBonus(db, { priceEuros: 119, appointmentId: null })).toBeNull();
    expect(await ticketBonus(db, { priceEuros: null, appointmentId: screen })).toBeNull();
    await setBonus(false);
    expect(await ticketBonus(db, { priceEuros: 119, appointmentId: screen })).toBeNull();
  });
});
