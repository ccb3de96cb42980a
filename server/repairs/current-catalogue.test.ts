/**
 * Issue 29, « Tarifs » on repair tickets (PGlite): the repairs service built as `server/services.ts` builds it,
 * on the catalogue service's `current()`. A price edited by staff is the one the staff ticket view shows as
 * the catalogue's reference; a model staff hid is « no longer in the catalogue » for the view and the bonus
 * line; a model staff added gets the bonus line on its tickets, staff side and on the tracking page.
 */
import { sql } from "drizzle-orm";
import { pino } from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_BOOKING_SETTINGS } from "#app/booking/settings.ts";
import { afterBonusText, bonusFor } from "#app/catalogue/bonus-reparation.ts";
import { formatPrice, getModel as seedModel } from "#app/catalogue/index.ts";
import { users } from "#database/schema.ts";
import { appointments, shopSettings } from "#database/schema-booking.ts";
import { createCatalogueService, type CatalogueService } from "#server/catalogue/service.ts";
import { openTestDatabase, type TestDatabase } from "#tests/support/databases.ts";
import { createRepairService, type RepairService } from "./service.ts";

const logger = pino({ level: "silent" });
const MAIL = {
  shopEmail: "atelier@exemple.fr",
  messageIdDomain: "atelier.exemple",
  publicUrl: "https://atelier.exemple",
};
const CONTACT = { customerName: "Léa Martin", email: "lea@exemple.fr", phone: "0612345678" };
const EDITOR = { userId: "gerant", name: "Sam Gérant" };
const ORIGIN = { ip: "203.0.113.9" };
/** A model the JSON seed lacks, added by staff with a price for each iPhone repair. */
const ADDED = {
  brand: "iphone",
  series: "serie-iphone-8",
  name: "iPhone 8 Reconditionné",
  prices: {
    ecran: 69,
    batterie: 45,
    "vitre-arriere": 65,
    "connecteur-de-charge": 55,
    "camera-avant": 55,
    "camera-arriere": 65,
  },
};

let database: TestDatabase;
let catalogue: CatalogueService;
let repairs: RepairService;

beforeAll(async () => {
  database = await openTestDatabase("pglite");
  catalogue = await createCatalogueService({ db: database.db, logger });
  repairs = createRepairService({ db: database.db, logger, mail: MAIL, catalogue: () => catalogue.current() });
}, 60_000);

afterAll(async () => {
  await catalogue?.stop();
  await database?.dispose();
});

beforeEach(async () => {
  const { db } = database;
  await db.execute(
    sql.raw(
      "truncate repair_tickets, repair_ticket_events, appointments, shop_settings, users, catalogue_prices, catalogue_added_models, catalogue_hidden_models, catalogue_history cascade",
    ),
  );
  await db.insert(users).values([
    { id: "tech", name: "Camille Tech", email: "camille@atelier.exemple" },
    { id: EDITOR.userId, name: EDITOR.name, email: "gerant@atelier.exemple" },
  ]);
  await db.insert(shopSettings).values({ id: 1, booking: DEFAULT_BOOKING_SETTINGS, bonusReparation: true });
  // The truncate is another process's change as far as the service knows: read the rows again.
  await catalogue.poll();
});

/** Opens a ticket from a booking of `modelSlug`'s screen at `priceEuros`; resolves with its id and code. */
async function openBooked(modelSlug: string, priceEuros: number) {
  const [appointment] = await database.db
    .insert(appointments)
    .values({
      startsAt: new Date("2026-12-01T09:00:00Z"),
      endsAt: new Date("2026-12-01T09:30:00Z"),
      modelSlug,
      modelName: modelSlug,
      repairId: "ecran",
      repairLabel: "Écran",
      priceEuros,
      ...CONTACT,
    })
    .returning();
  const opened = await repairs.open({ appointmentId: appointment!.id }, "tech");
  if (!opened.ok) throw new Error(opened.message);
  return { id: opened.ticket.id, code: opened.ticket.code };
}

async function staffTicket(id: string) {
  const read = await repairs.get(id);
  if (!read.ok) throw new Error(read.message);
  return read.ticket;
}

async function trackedBonus(code: string) {
  const tracked = await repairs.track({ code, contact: CONTACT.email }, ORIGIN);
  if (!tracked.ok) throw new Error(tracked.message);
  return tracked.ticket.afterBonus;
}

const screenEuros = (slug: string) =>
  catalogue
    .current()
    .getModel(slug)
    ?.model.repairs.find((repair) => repair.id === "ecran")?.euros;

describe("a repair ticket on the current catalogue", () => {
  it("shows staff the screen price as edited in « Tarifs », not the JSON's", async () => {
    const seedEuros = seedModel("iphone-13")!.model.repairs.find((repair) => repair.id === "ecran")!.euros;
    const { id } = await openBooked("iphone-13", seedEuros);
    expect((await staffTicket(id)).catalogue?.price).toBe(formatPrice(seedEuros));

    const edited = seedEuros + 17;
    const outcome = await catalogue.setPrice(EDITOR, {
      brand: "iphone",
      model: "iphone-13",
      repair: "ecran",
      euros: edited,
      estimate: false,
    });
    expect(outcome).toMatchObject({ ok: true });
    expect(screenEuros("iphone-13")).toBe(edited);
    const ticket = await staffTicket(id);
    expect(ticket.catalogue).toEqual({ model: "iPhone 13", repair: "Écran", price: formatPrice(edited) });
    // The price announced to the customer stays the ticket's own, and so does the bonus line built on it.
    expect(ticket.priceEuros).toBe(seedEuros);
    expect(ticket.afterBonus).toBe(afterBonusText(seedEuros, bonusFor("iphone", "ecran")!.euros));
  });

  it("treats a model staff hid as no longer in the catalogue, and shows it again once shown", async () => {
    const { id, code } = await openBooked("iphone-13", 119);
    const line = afterBonusText(119, bonusFor("iphone", "ecran")!.euros);
    expect(await trackedBonus(code)).toBe(line);

    const hide = (hidden: boolean) => catalogue.setVisibility(EDITOR, { brand: "iphone", model: "iphone-13", hidden });
    expect(await hide(true)).toMatchObject({ ok: true });
    const hidden = await staffTicket(id);
    expect(hidden.catalogue).toBeNull();
    expect(hidden.afterBonus).toBeNull();
    expect(await trackedBonus(code)).toBeNull();

    expect(await hide(false)).toMatchObject({ ok: true });
    const shown = await staffTicket(id);
    expect(shown.catalogue?.model).toBe("iPhone 13");
    expect(shown.afterBonus).toBe(line);
    expect(await trackedBonus(code)).toBe(line);
  });

  it("gives a model staff added its catalogue entry and bonus line, staff side and on the tracking page", async () => {
    expect(await catalogue.addModel(EDITOR, ADDED)).toMatchObject({ ok: true });
    const slug = catalogue
      .current()
      .brands.flatMap((brand) =>
        brand.series.flatMap((series) => series.models.filter((model) => model.name === ADDED.name)),
      )[0]!.slug;
    expect(seedModel(slug)).toBeUndefined();

    const { id, code } = await openBooked(slug, ADDED.prices.ecran);
    const line = afterBonusText(ADDED.prices.ecran, bonusFor("iphone", "ecran")!.euros);
    const ticket = await staffTicket(id);
    expect(ticket.catalogue).toEqual({ model: ADDED.name, repair: "Écran", price: formatPrice(ADDED.prices.ecran) });
    expect(ticket.afterBonus).toBe(line);
    expect(await trackedBonus(code)).toBe(line);
  });
});
