/**
 * Issue 27, the queue's pure parts: the estimated wait, open or closed at the
 * shop's wall clock (Europe/Paris, across a DST change), what a waiting
 * customer reads, the waiting time as technicians read it, and the system
 * named from a browser's headers or the app's platform.
 */
import { describe, expect, it } from "vitest";
import { defaultShop as shop, formatOpeningHours } from "#app/config/shop.ts";
import { systemOfBrowser, systemOfPlatform } from "./customer-system.ts";
import { estimateMinutes, formatWaited, isQueuePlace, isShopOpen, queuePlaceText, waitedMinutes } from "./queue.ts";

const hours = formatOpeningHours();
const context = (iso: string) => ({ now: new Date(iso), slots: shop.openingHours, hours });

describe("the estimated wait", () => {
  it("is place × a typical session ÷ the technicians on duty, in steps of 5 minutes, never under 5", () => {
    expect(estimateMinutes(1, 15, 1)).toBe(15);
    expect(estimateMinutes(3, 15, 1)).toBe(45);
    expect(estimateMinutes(1, 15, 2)).toBe(10);
    expect(estimateMinutes(2, 12.5, 1)).toBe(25);
    expect(estimateMinutes(1, 2, 4)).toBe(5);
    // Nobody on duty counts as one technician: still an order of magnitude, never a division by zero.
    expect(estimateMinutes(2, 15, 0)).toBe(30);
  });
});

describe("the shop's hours", () => {
  it("are open Monday to Friday 9h–19h in Paris, winter and summer time alike", () => {
    expect(isShopOpen(new Date("2026-01-05T08:00:00Z"), shop.openingHours)).toBe(true); // lundi 9h00 (UTC+1)
    expect(isShopOpen(new Date("2026-01-05T07:59:00Z"), shop.openingHours)).toBe(false); // lundi 8h59
    expect(isShopOpen(new Date("2026-01-05T17:59:00Z"), shop.openingHours)).toBe(true); // lundi 18h59
    expect(isShopOpen(new Date("2026-01-05T18:00:00Z"), shop.openingHours)).toBe(false); // lundi 19h00
    expect(isShopOpen(new Date("2026-07-06T07:00:00Z"), shop.openingHours)).toBe(true); // lundi 9h00 (UTC+2)
    expect(isShopOpen(new Date("2026-01-10T10:00:00Z"), shop.openingHours)).toBe(false); // samedi
  });
});

describe("what a waiting customer reads", () => {
  it("says their place and the estimated wait while the shop is open", () => {
    const open = context("2026-01-05T10:00:00Z");
    expect(queuePlaceText({ place: 1, total: 3, estimatedMinutes: 15 }, open)).toEqual([
      "Vous êtes en tête de la file d'attente.",
      "Attente estimée : environ 15 min.",
    ]);
    expect(queuePlaceText({ place: 2, total: 3, estimatedMinutes: 30 }, open)[0]).toBe(
      "Votre place dans la file d'attente : 2 (1 personne avant vous).",
    );
    expect(queuePlaceText({ place: 3, total: 3, estimatedMinutes: 45 }, open)[0]).toBe(
      "Votre place dans la file d'attente : 3 (2 personnes avant vous).",
    );
  });

  it("gives the shop's hours instead of an estimate while it is closed", () => {
    const sunday = context("2026-01-11T10:00:00Z");
    expect(queuePlaceText({ place: 2, total: 2, estimatedMinutes: 30 }, sunday)).toEqual([
      "Votre place dans la file d'attente : 2 (1 personne avant vous).",
      "L'atelier est fermé en ce moment : un technicien vous répondra dès l'ouverture.",
      "Horaires : Du lundi au vendredi : 9h – 14h ; Du lundi au vendredi : 14h – 19h sur rendez-vous.",
    ]);
  });

  it("only accepts a place-shaped push", () => {
    expect(isQueuePlace({ place: 1, total: 1, estimatedMinutes: 5 })).toBe(true);
    expect(isQueuePlace({ place: "1", total: 1, estimatedMinutes: 5 })).toBe(false);
    expect(isQueuePlace(null)).toBe(false);
  });
});

describe("the waiting time technicians read", () => {
  it("counts whole minutes, in French", () => {
    const since = "2026-01-05T10:00:00.000Z";
    expect(waitedMinutes(since, Date.parse("2026-01-05T10:00:59Z"))).toBe(0);
    expect(waitedMinutes(since, Date.parse("2026-01-05T10:12:30Z"))).toBe(12);
    expect(waitedMinutes(since, Date.parse("2026-01-05T09:59:00Z"))).toBe(0);
    expect(formatWaited(0)).toBe("moins d'une minute");
    expect(formatWaited(1)).toBe("1 minute");
    expect(formatWaited(12)).toBe("12 minutes");
  });
});

describe("the customer's system", () => {
  it("comes from the platform hint first, else the User-Agent", () => {
    expect(systemOfBrowser({ platformHint: '"Windows"', userAgent: "X11; Linux" })).toBe("Windows");
    expect(systemOfBrowser({ platformHint: '"Chrome OS"' })).toBe("ChromeOS");
    expect(systemOfBrowser({ userAgent: "Mozilla/5.0 (Linux; Android 14; Pixel 8)" })).toBe("Android");
    expect(systemOfBrowser({ userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X)" })).toBe("iOS");
    expect(systemOfBrowser({ userAgent: "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5)" })).toBe("macOS");
    expect(systemOfBrowser({ userAgent: "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0)" })).toBe("ChromeOS");
    expect(systemOfBrowser({ userAgent: "Mozilla/5.0 (X11; Linux x86_64)" })).toBe("Linux");
    expect(systemOfBrowser({ platformHint: '"Unknown"', userAgent: "curl/8.0" })).toBeNull();
    expect(systemOfBrowser({})).toBeNull();
  });

  it("comes from the desktop app's platform", () => {
    expect(systemOfPlatform("windows")).toBe("Windows");
    expect(systemOfPlatform("macos")).toBe("macOS");
    expect(systemOfPlatform("linux")).toBe("Linux");
    expect(systemOfPlatform("toString")).toBeNull();
  });
});
