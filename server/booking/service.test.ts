/**
 * Issue 18 §1, the booking rules on PGlite and PostgreSQL: slots from the
 * settings, a booking stored with its mails (invitation, shop notice,
 * reminder the day before), the race for the last place, moves and
 * cancellations by signed link and by the shop, and refusals that store
 * nothing.
 */
import { and, eq, sql } from "drizzle-orm";
import pg from "pg";
import { pino } from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_BOOKING_SETTINGS } from "#app/booking/settings.ts";
import type { AppDatabase } from "#database/connection.ts";
import { outboxMessages, users } from "#database/schema.ts";
import { appointments } from "#database/schema-booking.ts";
import { repairTickets } from "#database/schema-repairs.ts";
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from "#tests/support/databases.ts";
import { createBookingService, type BookingService } from "./service.ts";

const logger = pino({ level: "silent" });
/** Monday 23 November 2026, 09:00 in Paris (UTC+1). */
const NOW = new Date("2026-11-23T08:00:00Z");
/** Tuesday 24 November 2026, 09:00 and 09:30 in Paris. */
const TUESDAY_9 = "2026-11-24T08:00:00.000Z";
const TUESDAY_930 = "2026-11-24T08:30:00.000Z";
const ORIGIN = { ip: "203.0.113.7" };
const customer = (slot: string, extra: Record<string, string> = {}) => ({
  slot,
  name: "Léa Martin",
  email: "lea@exemple.fr",
  phone: "06 12 34 56 78",
  note: "Écran fissuré en haut à droite",
  model: "iphone-13",
  repair: "ecran",
  ...extra,
});

/** The service under test on `db`, its clock stopped at `NOW`. */
const bookingServiceOn = (db: AppDatabase): BookingService =>
  createBookingService({
    db,
    logger,
    mail: { shopEmail: "atelier@exemple.fr", publicUrl: "https://atelier.example" },
    secret: "s".repeat(40),
    rateLimit: { points: 1000, durationSeconds: 600 },
    now: () => NOW,
  });

describe.each(DATABASE_KINDS)("booking on %s", (kind) => {
  let database: TestDatabase;
  let db: AppDatabase;
  let booking: BookingService;
  let changes: string[];

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    db = database.db;
  });
  afterAll(async () => database.dispose());
  beforeEach(async () => {
    await db.execute(sql.raw("truncate appointments, shop_settings, outbox_messages, users cascade"));
    await db.insert(users).values({ id: "admin", name: "Atelier", email: "admin@exemple.fr" });
    changes = [];
    booking = bookingServiceOn(db);
    booking.subscribe((change) => changes.push(change.date));
  });

  const outbox = () =>
    db.select().from(outboxMessages).where(eq(outboxMessages.status, "pending")).orderBy(outboxMessages.requestKind);

  it("offers the opening hours' slots, after the lead time, and none on a weekend", async () => {
    const week = await booking.availability("2026-11-23", 7);
    expect(week).not.toBeNull();
    const [monday, tuesday, , , , saturday, sunday] = week!.days;
    // 09:00 now, 2 hours' lead time: the first slot left today is 11:00.
    expect(monday!.slots[0]!.time).toBe("11:00");
    expect(tuesday!.slots.map((slot) => slot.time)).toHaveLength(20);
    expect(tuesday!.slots[0]).toEqual({ start: TUESDAY_9, time: "09:00", free: 1 });
    expect(tuesday!.slots.at(-1)!.time).toBe("18:30");
    expect(saturday!.slots).toEqual([]);
    expect(sunday!.slots).toEqual([]);
  });

  it("stores a booking with the customer's invitation, the shop's notice and tomorrow's reminder", async () => {
    const result = await booking.book(customer(TUESDAY_9), ORIGIN);
    expect(result.status).toBe("booked");
    if (result.status !== "booked") return;
    expect(result.appointment).toMatchObject({
      status: "requested",
      startsAt: TUESDAY_9,
      endsAt: TUESDAY_930,
      modelName: "iPhone 13",
      repairLabel: "Écran",
      customerName: "Léa Martin",
    });
    expect(result.appointment.priceEuros).toBeGreaterThan(0);
    const mails = await outbox();
    expect(mails.map((row) => row.requestKind)).toEqual([
      "appointment-booked",
      "appointment-reminder",
      "appointment-shop",
    ]);
    const [booked, reminder, shop] = mails as [(typeof mails)[0], (typeof mails)[0], (typeof mails)[0]];
    expect(booked.mail.to).toBe("lea@exemple.fr");
    expect(booked.mail.calendar?.content).toContain("DTSTART:20261124T080000Z");
    expect(booked.mail.text).toContain("mardi 24 novembre 2026 à 09:00");
    expect(booked.mail.text).toContain(
      `https://atelier.example/rendez-vous/gerer?jeton=${encodeURIComponent(result.token)}`,
    );
    // The reminder waits until 17:00 in Paris the day before.
    expect(reminder.nextAttemptAt.toISOString()).toBe("2026-11-23T16:00:00.000Z");
    expect(shop.mail.to).toBe("atelier@exemple.fr");
    expect(shop.mail.text).toContain("Écran fissuré en haut à droite");
    expect(changes).toEqual(["2026-11-24"]);
    const tuesday = (await booking.availability("2026-11-24", 1))!.days[0]!;
    expect(tuesday.slots[0]!.free).toBe(0);
  });

  it("gives the last place to exactly one of two visitors racing, and the other the next free slots", async () => {
    const results = await Promise.all([
      booking.book(customer(TUESDAY_9), ORIGIN),
      booking.book(customer(TUESDAY_9, { name: "Paul Durand", email: "paul@exemple.fr" }), ORIGIN),
    ]);
    const statuses = results.map((result) => result.status).toSorted();
    expect(statuses).toEqual(["booked", "slot-taken"]);
    const lost = results.find((result) => result.status === "slot-taken");
    expect(lost && lost.status === "slot-taken" ? lost.next[0] : null).toMatchObject({ start: TUESDAY_930, free: 1 });
    const rows = await db.select().from(appointments);
    expect(rows).toHaveLength(1);
  });

  it("refuses a filled honeypot, invalid fields and a slot outside the hours, storing nothing", async () => {
    expect((await booking.book({ ...customer(TUESDAY_9), site_web: "http://spam" }, ORIGIN)).status).toBe("spam");
    const invalid = await booking.book({ ...customer(TUESDAY_9), email: "pas-un-mail", phone: "12" }, ORIGIN);
    expect(invalid).toMatchObject({
      status: "invalid",
      fieldErrors: { email: expect.any(String), phone: expect.any(String) },
    });
    const sunday = await booking.book(customer("2026-11-29T09:00:00.000Z"), ORIGIN);
    expect(sunday.status).toBe("slot-unavailable");
    const offHours = await booking.book(customer("2026-11-24T08:10:00.000Z"), ORIGIN);
    expect(offHours.status).toBe("slot-unavailable");
    expect(await db.select().from(appointments)).toEqual([]);
    expect(await outbox()).toEqual([]);
  });

  it("books a free diagnosis when the link names no known repair", async () => {
    const result = await booking.book(customer(TUESDAY_9, { model: "inconnu", repair: "ecran" }), ORIGIN);
    expect(result.status === "booked" && result.appointment).toMatchObject({
      repairLabel: "Diagnostic gratuit",
      modelName: null,
      priceEuros: null,
    });
  });

  it("moves and cancels by the signed link; a tampered link is refused", async () => {
    const booked = await booking.book(customer(TUESDAY_9), ORIGIN);
    if (booked.status !== "booked") throw new Error(booked.status);
    expect(await booking.byToken(`${booked.token.slice(0, -2)}xx`)).toEqual({ status: "link-invalid" });
    expect((await booking.moveByToken(`${booked.token}x`, TUESDAY_930, ORIGIN)).status).toBe("link-invalid");

    const moved = await booking.moveByToken(booked.token, TUESDAY_930, ORIGIN);
    expect(moved.status === "booked" && moved.appointment.startsAt).toBe(TUESDAY_930);
    const tuesday = (await booking.availability("2026-11-24", 1))!.days[0]!;
    expect(tuesday.slots.slice(0, 2).map((slot) => slot.free)).toEqual([1, 0]);
    const movedMail = (await outbox()).find((row) => row.requestKind === "appointment-moved");
    expect(movedMail?.mail.calendar?.content).toContain("SEQUENCE:1");

    const cancelled = await booking.cancelByToken(moved.status === "booked" ? moved.token : "", ORIGIN);
    expect(cancelled.status === "booked" && cancelled.appointment).toMatchObject({
      status: "cancelled",
      cancelledBy: "customer",
    });
    const pending = await outbox();
    expect(pending.some((row) => row.requestKind === "appointment-reminder")).toBe(false);
    expect(pending.find((row) => row.requestKind === "appointment-cancelled")?.mail.calendar?.method).toBe("CANCEL");
    // The link of the move is still the current one: once cancelled, nothing more can be changed.
    expect((await booking.cancelByToken(moved.status === "booked" ? moved.token : "", ORIGIN)).status).toBe(
      "not-modifiable",
    );
  });

  it("lets the shop confirm, move (without the lead time) and cancel, refusing a full slot", async () => {
    const first = await booking.book(customer(TUESDAY_9), ORIGIN);
    const second = await booking.book(customer(TUESDAY_930, { email: "paul@exemple.fr" }), ORIGIN);
    if (first.status !== "booked" || second.status !== "booked") throw new Error("not booked");
    expect(await booking.confirm(first.appointment.id)).toMatchObject({
      ok: true,
      appointment: { status: "confirmed" },
    });
    expect(await booking.move(first.appointment.id, new Date(TUESDAY_930))).toMatchObject({ ok: false, status: 409 });
    // 10:00 today: inside the customers' 2-hour lead time, but the shop may.
    const soon = await booking.move(first.appointment.id, new Date("2026-11-23T09:00:00Z"));
    expect(soon).toMatchObject({ ok: true, appointment: { startsAt: "2026-11-23T09:00:00.000Z" } });
    expect(await booking.cancel(second.appointment.id)).toMatchObject({
      ok: true,
      appointment: { status: "cancelled" },
    });
    expect(await booking.confirm("00000000-0000-4000-8000-000000000000")).toMatchObject({ ok: false, status: 404 });
    const agenda = await booking.agenda("2026-11-23", "2026-11-25");
    expect(agenda.map((row) => row.status)).toEqual(["confirmed", "cancelled"]);
    expect(agenda.map((row) => row.repairCode)).toEqual([null, null]);
    // Issue 40: once a repair is opened from it, the agenda names its tracking code (the card links to it).
    await db.insert(repairTickets).values({
      trackingCode: "UZFDGY5Y",
      appointmentId: first.appointment.id,
      modelName: "iPhone 13",
      repairLabel: "Écran",
      customerName: "Inès Morel",
      email: "ines@exemple.fr",
      phone: "06 12 34 56 78",
    });
    const withTicket = await booking.agenda("2026-11-23", "2026-11-25");
    expect(withTicket.map((row) => row.repairCode)).toEqual(["UZFD-GY5Y", null]);
    const kinds = (
      await db
        .select()
        .from(outboxMessages)
        .where(and(eq(outboxMessages.requestId, first.appointment.id)))
    )
      .map((row) => row.requestKind)
      .toSorted();
    expect(kinds).toEqual(["appointment-booked", "appointment-confirmed", "appointment-moved", "appointment-shop"]);
  });

  it("follows the staff's settings: capacity, closed dates, slot length", async () => {
    const saved = await booking.saveSettings(
      {
        booking: {
          ...DEFAULT_BOOKING_SETTINGS,
          capacity: 2,
          slotMinutes: 60,
          closedDates: [{ date: "2026-11-25", label: "Inventaire" }],
        },
        bonusReparation: true,
      },
      "admin",
    );
    expect(saved.ok).toBe(true);
    const week = (await booking.availability("2026-11-24", 2))!.days;
    expect(week[0]!.slots).toHaveLength(10);
    expect(week[0]!.slots[0]!.free).toBe(2);
    expect(week[1]!.slots).toEqual([]);
    expect(await booking.bonusShown()).toBe(true);
    const refused = await booking.saveSettings(
      {
        booking: { ...DEFAULT_BOOKING_SETTINGS, hours: [{ day: 1, opens: "14:00", closes: "09:00" }] },
        bonusReparation: false,
      },
      "admin",
    );
    expect(refused).toEqual({
      ok: false,
      fieldErrors: { hours: "L'heure de fermeture doit suivre l'heure d'ouverture." },
    });
  });
});

// Two connections are needed to hold a settings change open while a booking runs: PostgreSQL only.
describe.each(DATABASE_KINDS.filter((kind) => kind === "postgres"))(
  "settings changed during a booking on %s",
  (kind) => {
    it("checks a waiting booking against the settings a concurrent change commits", async () => {
      const database = await openTestDatabase(kind);
      const other = new pg.Client({ connectionString: database.url });
      await other.connect();
      try {
        const booking = bookingServiceOn(database.db);
        // Staff close Tuesday: their change holds the settings' lock (as `writeShopSettings` does) until it commits.
        await other.query("begin");
        await other.query("select pg_advisory_xact_lock(18001, -1)");
        const pending = booking.book(customer(TUESDAY_9), ORIGIN);
        const waiting = async () =>
          (await other.query("select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted"))
            .rows[0].n as number;
        // Until the booking waits for the lock (at most 2 s: without the lock it has booked already).
        for (let tries = 0; tries < 200 && (await waiting()) === 0; tries++) {
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        const closed = { ...DEFAULT_BOOKING_SETTINGS, closedDates: [{ date: "2026-11-24", label: "Inventaire" }] };
        await other.query(
          "insert into shop_settings (id, booking) values (1, $1) on conflict (id) do update set booking = excluded.booking",
          [JSON.stringify(closed)],
        );
        await other.query("commit");
        expect((await pending).status).toBe("slot-unavailable");
        expect(await database.db.select().from(appointments)).toEqual([]);
      } finally {
        await other.end();
        await database.dispose();
      }
    });
  },
);
