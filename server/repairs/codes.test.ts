/**
 * Issue 18 §2: tracking codes (alphabet, format, randomness) and contact
 * matching (e-mail any case, French phone formats), the statuses' moves and
 * the warranty's end (spec §9: 12 months from "Rendu").
 */
import { describe, expect, it } from "vitest";
import {
  formatDay,
  formatTrackingCode,
  nextStatuses,
  normalizeTrackingCode,
  transitionRefusal,
  TRACKING_CODE_ALPHABET,
  warrantyEnd,
} from "#app/repairs/statuses.ts";
import { contactMatches, isTrackingCode, newTrackingCode, phoneDigits } from "./codes.ts";

describe("tracking codes", () => {
  it("are 8 characters of an alphabet without look-alikes, shown with a dash", () => {
    expect(TRACKING_CODE_ALPHABET).not.toMatch(/[01ILO]/);
    const codes = new Set(Array.from({ length: 2000 }, newTrackingCode));
    expect(codes.size).toBe(2000);
    for (const code of codes) expect(isTrackingCode(code)).toBe(true);
    expect(formatTrackingCode("R7K3QXMA")).toBe("R7K3-QXMA");
    expect(normalizeTrackingCode(" r7k3-qxma ")).toBe("R7K3QXMA");
    expect(isTrackingCode("R7K3QXM0")).toBe(false);
    expect(isTrackingCode("R7K3QXM")).toBe(false);
  });
});

describe("contact matching", () => {
  const ticket = { email: "Lea.Martin@Exemple.fr", phone: "06 12 34 56 78" };
  it("compares e-mails without case or surrounding spaces", () => {
    expect(contactMatches("  lea.martin@exemple.FR ", ticket)).toBe(true);
    expect(contactMatches("lea@exemple.fr", ticket)).toBe(false);
  });
  it("compares phones by digits, French formats alike", () => {
    for (const typed of ["0612345678", "06.12.34.56.78", "+33 6 12 34 56 78", "0033612345678", "+33 (0)6 12 34 56 78"])
      expect(contactMatches(typed, ticket), typed).toBe(true);
    expect(contactMatches("06 12 34 56 79", ticket)).toBe(false);
    expect(contactMatches("", { email: "a@b.fr", phone: "" })).toBe(false);
    expect(phoneDigits("+32 470 12 34 56")).toBe("32470123456");
  });
});

describe("statuses", () => {
  it("move forward, reach « Devis à valider » only by a quote, and cancel until final", () => {
    expect(nextStatuses("received")).toEqual(["diagnosis", "repairing", "ready", "returned", "cancelled"]);
    expect(nextStatuses("quote-pending")).toEqual(["repairing", "ready", "returned", "cancelled"]);
    expect(nextStatuses("returned")).toEqual([]);
    expect(nextStatuses("cancelled")).toEqual([]);
    expect(transitionRefusal("repairing", "diagnosis")).toBe(
      "Une réparation « En réparation » ne peut pas revenir à « Diagnostic ».",
    );
    expect(transitionRefusal("diagnosis", "quote-pending")).toBe(
      "« Devis à valider » s'obtient en saisissant un devis.",
    );
    expect(transitionRefusal("returned", "cancelled")).toBe(
      "Cette réparation est « Rendu » : son statut ne change plus.",
    );
  });

  it("end the warranty 12 months after the day it was given back, in the shop's calendar", () => {
    expect(warrantyEnd(new Date("2026-11-24T10:00:00Z"))).toBe("2027-11-24");
    // 23:30 UTC on 31 December is already 1 January in Paris.
    expect(warrantyEnd(new Date("2026-12-31T23:30:00Z"))).toBe("2028-01-01");
    expect(warrantyEnd(new Date("2028-02-29T12:00:00Z"))).toBe("2029-02-28");
    expect(formatDay("2027-11-24")).toBe("24 novembre 2027");
  });
});
