/**
 * Issue 18 §1: the slots follow the shop's wall clock across daylight-saving
 * changes, the closed days and dates, the lead time and the horizon, and
 * count every appointment overlapping them.
 */
import { describe, expect, it } from "vitest";
import { BookingSettings, DEFAULT_BOOKING_SETTINGS } from "./settings.ts";
import { shopDate, shopInstant, slotAt, slotsBetween } from "./slots.ts";

const NOW = new Date("2026-03-20T08:00:00Z");
const settings = { ...DEFAULT_BOOKING_SETTINGS, horizonDays: 180 };
const iso = (slots: { start: Date }[]) => slots.map((slot) => slot.start.toISOString());

describe("slots", () => {
  it("keep the shop's wall clock on both sides of a daylight-saving change", () => {
    // Friday 27 March 2026 is UTC+1, Monday 30 March UTC+2.
    expect(iso(slotsBetween(settings, { from: "2026-03-27", to: "2026-03-27" }, [], NOW)).at(0)).toBe(
      "2026-03-27T08:00:00.000Z",
    );
    expect(iso(slotsBetween(settings, { from: "2026-03-30", to: "2026-03-30" }, [], NOW)).at(0)).toBe(
      "2026-03-30T07:00:00.000Z",
    );
    // On the change day itself (Sunday 29 March, opened for the test), each bound is looked up.
    const sunday = { ...settings, hours: [{ day: 7, opens: "01:00", closes: "05:00" }], slotMinutes: 60 };
    expect(iso(slotsBetween(sunday, { from: "2026-03-29", to: "2026-03-29" }, [], NOW))).toEqual([
      "2026-03-29T00:00:00.000Z",
      // 02:00–03:00 does not exist that night: no slot; 03:00 follows 01:00.
      "2026-03-29T01:00:00.000Z",
      "2026-03-29T02:00:00.000Z",
    ]);
    expect(shopInstant("2026-10-26", 9 * 60).toISOString()).toBe("2026-10-26T08:00:00.000Z");
  });

  it("skip weekends by default, closed dates, slots inside the lead time, and days past the horizon", () => {
    const week = slotsBetween(
      { ...settings, closedDates: [{ date: "2026-03-24", label: "Inventaire" }] },
      { from: "2026-03-20", to: "2026-03-26" },
      [],
      NOW,
    );
    const dates = [...new Set(week.map((slot) => slot.date))];
    expect(dates).toEqual(["2026-03-20", "2026-03-23", "2026-03-25", "2026-03-26"]);
    // 09:00 in Paris now, 2 hours' lead time.
    expect(week[0]!.time).toBe("11:00");
    const short = { ...settings, horizonDays: 3 };
    expect([
      ...new Set(slotsBetween(short, { from: "2026-03-20", to: "2026-04-30" }, [], NOW).map((slot) => slot.date)),
    ]).toEqual(["2026-03-20"]);
  });

  it("count an appointment in every slot it overlaps, never below zero", () => {
    const monday = { from: "2026-03-23", to: "2026-03-23" };
    const nine = shopInstant("2026-03-23", 9 * 60);
    const hourLong = { startsAt: nine, endsAt: new Date(nine.getTime() + 3_600_000) };
    const slots = slotsBetween(settings, monday, [hourLong, hourLong], NOW);
    expect(slots.slice(0, 3).map((slot) => slot.free)).toEqual([0, 0, 1]);
  });

  it("find a slot only at one of its exact starts", () => {
    const start = shopInstant("2026-03-23", 9 * 60 + 30);
    expect(slotAt(settings, start, NOW)?.time).toBe("09:30");
    expect(slotAt(settings, new Date(start.getTime() + 60_000), NOW)).toBeUndefined();
    expect(shopDate(start)).toBe("2026-03-23");
  });

  it("refuse settings staff could mistype", () => {
    const refused = (change: object) => BookingSettings.safeParse({ ...DEFAULT_BOOKING_SETTINGS, ...change }).success;
    expect(refused({ slotMinutes: 5 })).toBe(false);
    expect(refused({ capacity: 0 })).toBe(false);
    expect(refused({ hours: [{ day: 8, opens: "09:00", closes: "10:00" }] })).toBe(false);
    expect(
      refused({
        hours: [
          { day: 1, opens: "09:00", closes: "12:00" },
          { day: 1, opens: "11:00", closes: "13:00" },
        ],
      }),
    ).toBe(false);
    expect(refused({ closedDates: [{ date: "2026-02-30", label: "" }] })).toBe(false);
    expect(refused({ closedDates: [{ date: "2026-12-25" }] })).toBe(true);
  });
});
