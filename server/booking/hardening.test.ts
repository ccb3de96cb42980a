/**
 * Issue 28, the booking's hardening on PGlite and PostgreSQL: slots outside
 * the booking window refused in French before any arithmetic, with no
 * error logged (§4); the caps of upcoming appointments per e-mail and per
 * phone and of booking mails per address, even against parallel bookings
 * (§5); links from before a move refused (§9); a booking sent again with
 * its form key answered with the first one, stored and mailed once ("a
 * retried booking must not book twice").
 */
import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { pino } from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { BOOKING_MESSAGES } from "#app/booking/schemas.ts";
import { DEFAULT_BOOKING_SETTINGS } from "#app/booking/settings.ts";
import type { AppDatabase } from "#database/connection.ts";
import { outboxMessages, users } from "#database/schema.ts";
import { appointments } from "#database/schema-booking.ts";
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from "#tests/support/databases.ts";
import { createBookingService, type BookingService } from "./service.ts";

/** Monday 23 November 2026, 09:00 in Paris (UTC+1). */
const NOW = new Date("2026-11-23T08:00:00Z");
/** The `index`-th half-hour slot of Tuesday 24 November 2026 from 09:00 in Paris (0…9 before 14:00). */
const tuesday = (index: number) => new Date(Date.parse("2026-11-24T08:00:00Z") + index * 1_800_000).toISOString();
const ORIGIN = { ip: "203.0.113.28" };
const customer = (slot: string, extra: Record<string, string> = {}) => ({
  slot,
  name: "Léa Martin",
  email: "lea@exemple.fr",
  phone: "06 12 34 56 78",
  model: "iphone-13",
  repair: "ecran",
  ...extra,
});

type LogLine = { level: number; msg: string };

describe.each(DATABASE_KINDS)("booking hardening (issue 28) on %s", (kind) => {
  let database: TestDatabase;
  let db: AppDatabase;
  let booking: BookingService;
  let logs: LogLine[];

  /** The service at `NOW`, its logs (debug and up) kept in `logs`. */
  const serviceOn = (points = 1000) =>
    createBookingService({
      db,
      logger: pino({ level: "debug" }, { write: (line: string) => void logs.push(JSON.parse(line) as LogLine) }),
      mail: { shopEmail: "atelier@exemple.fr", publicUrl: "https://atelier.example" },
      secret: "s".repeat(40),
      rateLimit: { points, durationSeconds: 600 },
      now: () => NOW,
    });
  const rows = () => db.select().from(appointments);
  const warnings = () => logs.filter((line) => line.level >= 40);
  const book = async (slot: string, extra: Record<string, string> = {}) => {
    const result = await booking.book(customer(slot, extra), ORIGIN);
    if (result.status !== "booked") throw new Error(`not booked: ${result.status}`);
    return result;
  };

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    db = database.db;
  });
  afterAll(async () => database.dispose());
  beforeEach(async () => {
    await db.execute(sql.raw("truncate appointments, shop_settings, outbox_messages, users cascade"));
    await db.insert(users).values({ id: "admin", name: "Atelier", email: "admin@exemple.fr" });
    logs = [];
    booking = serviceOn();
  });

  it("refuses a slot outside the booking window in French, for a booking and both moves, and logs no error (§4)", async () => {
    const booked = await book(tuesday(0));
    const outside = { status: "invalid", fieldErrors: { slot: BOOKING_MESSAGES.outsideWindow } };
    const staffOutside = { ok: false, status: 400, message: BOOKING_MESSAGES.outsideWindow };
    for (const far of [
      "9999-12-31T09:00:00.000Z", // overflowed the slot lock's 32-bit key: 503 and an error line
      "6054-01-01T09:00:00.000Z",
      "0001-01-01T09:00:00.000Z",
      "1970-01-01T09:00:00.000Z",
      "2027-06-01T07:00:00.000Z", // past the 60 days offered
      "2026-11-23T07:30:00.000Z", // 08:30 today, already gone
    ]) {
      expect(await booking.book(customer(far, { email: "paul@exemple.fr" }), ORIGIN), far).toEqual(outside);
      expect(await booking.moveByToken(booked.token, far, ORIGIN), far).toEqual(outside);
      expect(await booking.move(booked.appointment.id, new Date(far)), far).toEqual(staffOutside);
    }
    // Inside the customers' 2-hour lead time: theirs is refused, the shop may.
    expect(await booking.book(customer("2026-11-23T08:30:00.000Z"), ORIGIN)).toEqual(outside);
    expect((await booking.move(booked.appointment.id, new Date("2026-11-23T08:30:00.000Z"))).ok).toBe(true);
    expect(warnings()).toEqual([]);
    expect(await rows()).toHaveLength(1);
  });

  it("books at most 3 upcoming appointments per e-mail and per phone, even sent in parallel (§5)", async () => {
    const sameEmail = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        booking.book(customer(tuesday(index), { phone: `06 00 00 00 0${index}` }), ORIGIN),
      ),
    );
    const refused = { status: "contact-limit", limit: "upcoming", max: 3 };
    expect(sameEmail.filter((result) => result.status === "booked")).toHaveLength(3);
    expect(sameEmail.filter((result) => result.status !== "booked")).toEqual(Array(5).fill(refused));

    const samePhone = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        booking.book(
          customer(tuesday(10 + index), { email: `autre${index}@exemple.fr`, phone: "07 11 22 33 44" }),
          ORIGIN,
        ),
      ),
    );
    expect(samePhone.filter((result) => result.status === "booked")).toHaveLength(3);
    // The same number written another way, the same address in capitals: the same person.
    const other = { email: "nouveau@exemple.fr", phone: "+33 7 11 22 33 44" };
    expect(await booking.book(customer(tuesday(18), other), ORIGIN)).toEqual(refused);
    expect(
      await booking.book(customer(tuesday(18), { email: "LEA@exemple.fr", phone: "01 00 00 00 00" }), ORIGIN),
    ).toEqual(refused);
    expect(await rows()).toHaveLength(6);
    expect(BOOKING_MESSAGES.tooManyUpcoming(3, "01 99 00 12 34")).toMatch(
      /appelez l'atelier au \d\d \d\d \d\d \d\d \d\d\.$/,
    );

    // A cancelled appointment no longer counts.
    const first = sameEmail.find((result) => result.status === "booked");
    if (first?.status !== "booked") throw new Error("none booked");
    expect((await booking.cancelByToken(first.token, ORIGIN)).status).toBe("booked");
    expect((await booking.book(customer(tuesday(18)), ORIGIN)).status).toBe("booked");
    // Repeated refusals are summarised, never one warning each.
    expect(warnings()).toEqual([]);
  });

  it("takes the cap from the agenda's settings, and limits the booking mails an address gets a day (§5)", async () => {
    const save = (change: Record<string, number>) =>
      booking.saveSettings({ booking: { ...DEFAULT_BOOKING_SETTINGS, ...change }, bonusReparation: false }, "admin");
    expect(await save({ maxUpcomingPerContact: 0 })).toMatchObject({
      ok: false,
      fieldErrors: { maxUpcomingPerContact: "Au moins un rendez-vous à venir par client." },
    });
    expect((await save({ maxUpcomingPerContact: 1 })).ok).toBe(true);
    await book(tuesday(0));
    expect(await booking.book(customer(tuesday(1), { phone: "06 99 99 99 99" }), ORIGIN)).toEqual({
      status: "contact-limit",
      limit: "upcoming",
      max: 1,
    });

    // Booking and cancelling again and again still mails the address each time: 5 a day at most.
    expect((await save({ maxUpcomingPerContact: 20 })).ok).toBe(true);
    for (let index = 1; index < 5; index++) {
      const booked = await book(tuesday(index), { phone: `06 00 00 00 0${index}` });
      expect((await booking.cancelByToken(booked.token, ORIGIN)).status).toBe("booked");
    }
    expect(await booking.book(customer(tuesday(6), { phone: "06 00 00 00 06" }), ORIGIN)).toEqual({
      status: "contact-limit",
      limit: "mails",
      max: 5,
    });
    const mailed = await db.select().from(outboxMessages).where(eq(outboxMessages.requestKind, "appointment-booked"));
    expect(mailed).toHaveLength(5);
  });

  it("refuses the links from before a move; the move's mail carries the new one (§9)", async () => {
    const booked = await book(tuesday(0));
    const moved = await booking.moveByToken(booked.token, tuesday(1), ORIGIN);
    if (moved.status !== "booked") throw new Error(moved.status);
    expect(moved.token).not.toBe(booked.token);
    expect(await booking.byToken(booked.token)).toEqual({ status: "link-invalid" });
    expect(await booking.invitationByToken(booked.token)).toBeNull();
    expect((await booking.moveByToken(booked.token, tuesday(2), ORIGIN)).status).toBe("link-invalid");
    expect((await booking.cancelByToken(booked.token, ORIGIN)).status).toBe("link-invalid");
    const mails = await db.select().from(outboxMessages).where(eq(outboxMessages.requestKind, "appointment-moved"));
    expect(mails[0]!.mail.text).toContain(`jeton=${encodeURIComponent(moved.token)}`);
    expect(await booking.byToken(moved.token)).toMatchObject({
      status: "found",
      appointment: { startsAt: tuesday(1) },
    });

    // A move by the shop too; a confirmation, which mails the same link again, does not.
    expect((await booking.move(booked.appointment.id, new Date(tuesday(3)))).ok).toBe(true);
    expect(await booking.byToken(moved.token)).toEqual({ status: "link-invalid" });
    const shopMove = (await db.select().from(outboxMessages)).find(
      (row) => row.requestKind === "appointment-moved" && row.mail.text.includes("à 10:30"),
    );
    const current = decodeURIComponent(/jeton=(\S+)/.exec(shopMove!.mail.text)![1]!);
    expect((await booking.confirm(booked.appointment.id)).ok).toBe(true);
    expect(await booking.byToken(current)).toMatchObject({ status: "found", appointment: { startsAt: tuesday(3) } });
  });

  it("answers a booking sent again with its form key with the first one, stored and mailed once", async () => {
    booking = serviceOn(2);
    const key = randomUUID();
    const first = await book(tuesday(0), { cle: key });
    // Retries neither book nor count against the address's limit (2 here).
    for (let attempt = 0; attempt < 4; attempt++) {
      expect(await booking.book(customer(tuesday(0), { cle: key }), ORIGIN)).toEqual(first);
    }
    expect(await rows()).toHaveLength(1);
    expect(await db.$count(outboxMessages)).toBe(3);

    // Sent several times at once, even naming two slots: one booking, the same answer to all.
    booking = serviceOn();
    const other = randomUUID();
    const parallel = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        booking.book(customer(tuesday(index % 2 === 0 ? 2 : 3), { cle: other, email: "paul@exemple.fr" }), ORIGIN),
      ),
    );
    const ids = parallel.map((result) => (result.status === "booked" ? result.appointment.id : result.status));
    expect(new Set(ids).size).toBe(1);
    expect(ids[0]).not.toBe(first.appointment.id);
    expect(await rows()).toHaveLength(2);

    // The same key with someone else's details books nothing and tells nothing of the first booking.
    expect(
      await booking.book(customer(tuesday(4), { cle: key, email: "x@exemple.fr", phone: "07 00 00 00 00" }), ORIGIN),
    ).toEqual({ status: "key-used" });
    expect(await booking.book(customer(tuesday(4), { cle: "pas une clé" }), ORIGIN)).toMatchObject({
      status: "invalid",
      fieldErrors: { cle: expect.any(String) },
    });
    expect(await rows()).toHaveLength(2);
  });
});
