/**
 * Tests of the repair bonus amounts (issue 18 §3): the data file matches the
 * catalogue, the lookups give the sourced amounts and nothing else, the
 * discounted price and its text, and the validator's refusal of bad files.
 */
import { describe, expect, it } from "vitest";
import { formatEuros } from "#app/config/shop.ts";
import bonusJson from "./bonus-reparation.json" with { type: "json" };
import {
  BONUS_REPARATION_CHECKED_ON,
  BONUS_REPARATION_NOTE,
  afterBonusText,
  bonusFor,
  parseBonusFile,
  priceAfterBonus,
} from "./bonus-reparation.ts";
import { CONSOLE_REPAIR_IDS, REPAIR_IDS, allOffers } from "./index.ts";
import { FAMILIES } from "./schema.ts";

/** A valid file with one entry changed (or added), for the validator's tests. */
function fileWith(entry: Record<string, unknown>): unknown {
  return { ...bonusJson, entries: [...bonusJson.entries, entry] };
}

/** A valid entry for a repair the shipped file has no amount for (so no duplicate). */
const validEntry = {
  family: "smartphone",
  repairs: ["connecteur"],
  euros: 25,
  source: "https://example.org/article",
  sourceDate: "2024-01",
};

describe("the bonus data file", () => {
  it("names only repairs that the catalogue prices for that family", () => {
    const priced = new Set(allOffers().map((offer) => `${offer.family}/${offer.repairId}`));
    for (const entry of bonusJson.entries) {
      for (const repair of entry.repairs)
        expect(priced, `${entry.family}/${repair}`).toContain(`${entry.family}/${repair}`);
    }
  });

  it("gives every amount a source and a month", () => {
    for (const family of FAMILIES) {
      for (const repair of REPAIR_IDS) {
        const bonus = bonusFor(family, repair);
        if (bonus === null) continue;
        expect(bonus.source).toMatch(/^https:\/\//u);
        expect(bonus.sourceDate).toMatch(/^\d{4}-\d{2}$/u);
      }
    }
  });

  it("says when it was checked and what the shop must check, in French", () => {
    expect(BONUS_REPARATION_CHECKED_ON).toMatch(/^\d{4}-\d{2}-\d{2}$/u);
    expect(BONUS_REPARATION_NOTE).toMatch(/Ecosystem/u);
    expect(BONUS_REPARATION_NOTE).toMatch(/Ecologic/u);
    expect(BONUS_REPARATION_NOTE).toMatch(/QualiRépar/u);
  });
});

describe("bonusFor", () => {
  it("gives 25 € for a phone screen since January 2024", () => {
    expect(bonusFor("iphone", "ecran")).toMatchObject({ euros: 25, sourceDate: "2024-01" });
    expect(bonusFor("smartphone", "ecran")).toMatchObject({ euros: 25, sourceDate: "2024-01" });
  });

  it("gives 25 € for a phone battery or camera", () => {
    expect(bonusFor("smartphone", "batterie")?.euros).toBe(25);
    expect(bonusFor("iphone", "batterie")?.euros).toBe(25);
    expect(bonusFor("smartphone", "camera")?.euros).toBe(25);
    expect(bonusFor("iphone", "camera-arriere")?.euros).toBe(25);
  });

  it("gives nothing for the rear glass (cosmetic)", () => {
    expect(bonusFor("iphone", "vitre-arriere")).toBeNull();
    expect(bonusFor("smartphone", "vitre-arriere")).toBeNull();
  });

  it("gives nothing for tablets and consoles (no source)", () => {
    for (const repair of CONSOLE_REPAIR_IDS) expect(bonusFor("console", repair)).toBeNull();
    expect(bonusFor("tablet", "ecran")).toBeNull();
  });
});

describe("priceAfterBonus and afterBonusText", () => {
  it("deducts the bonus in whole euros", () => {
    expect(priceAfterBonus(89, 25)).toBe(64);
    expect(afterBonusText(89, 25)).toBe(`${formatEuros(64)} après bonus réparation`);
    expect(afterBonusText(89, 25)).toMatch(/^64\s€ après bonus réparation$/u);
  });

  it("never goes below 0", () => {
    expect(priceAfterBonus(20, 25)).toBe(0);
    expect(priceAfterBonus(25, 25)).toBe(0);
    expect(afterBonusText(20, 25)).toBe(`${formatEuros(0)} après bonus réparation`);
  });

  it("refuses amounts that are not whole euros", () => {
    expect(() => priceAfterBonus(89.5, 25)).toThrow(RangeError);
    expect(() => priceAfterBonus(89, -25)).toThrow(RangeError);
  });
});

describe("parseBonusFile", () => {
  it("accepts the shipped file", () => {
    expect(parseBonusFile(bonusJson).entries.length).toBe(bonusJson.entries.length);
  });

  it("accepts a well-formed extra entry (the helper itself is valid)", () => {
    expect(() => parseBonusFile(fileWith(validEntry))).not.toThrow();
  });

  it("refuses an unknown repair, naming the entry", () => {
    expect(() => parseBonusFile(fileWith({ ...validEntry, repairs: ["ecran-casse"] }))).toThrow(
      /entrée n° 5 \(smartphone\) — repairs\.0 : type de réparation inconnu/u,
    );
  });

  it("refuses an unknown family", () => {
    expect(() => parseBonusFile(fileWith({ ...validEntry, family: "laptop" }))).toThrow(
      /entrée n° 5.*famille inconnue/u,
    );
  });

  it("refuses a repair the family does not offer", () => {
    expect(() => parseBonusFile(fileWith({ ...validEntry, repairs: ["camera-avant"] }))).toThrow(
      /camera-avant : réparation non proposée pour la famille smartphone/u,
    );
  });

  it("refuses a family and repair given twice", () => {
    expect(() => parseBonusFile(fileWith({ ...validEntry, repairs: ["ecran"] }))).toThrow(
      /entrée n° 5 \(smartphone\) — ecran : déjà donné par l'entrée n° 1 \(en double\)/u,
    );
  });

  it("refuses 0 €, a negative amount and cents", () => {
    expect(() => parseBonusFile(fileWith({ ...validEntry, euros: 0 }))).toThrow(
      /entrée n° 5.*euros : doit être positif/u,
    );
    expect(() => parseBonusFile(fileWith({ ...validEntry, euros: -25 }))).toThrow(/doit être positif/u);
    expect(() => parseBonusFile(fileWith({ ...validEntry, euros: 2.5 }))).toThrow(
      /entrée n° 5.*euros : doit être un nombre entier d'euros/u,
    );
  });

  it("refuses a missing source or a malformed month", () => {
    const { source: _source, ...withoutSource } = validEntry;
    expect(() => parseBonusFile(fileWith(withoutSource))).toThrow(/entrée n° 5.*source/u);
    expect(() => parseBonusFile(fileWith({ ...validEntry, sourceDate: "janvier 2024" }))).toThrow(/AAAA-MM/u);
  });

  it("refuses a misspelt field and a file that is not an object", () => {
    expect(() => parseBonusFile(fileWith({ ...validEntry, euro: 25 }))).toThrow(/entrée n° 5/u);
    expect(() => parseBonusFile(null)).toThrow(/bonus-reparation\.json invalide/u);
  });
});
