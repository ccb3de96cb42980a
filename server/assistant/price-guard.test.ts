/** The price check (issue 7): unsupported euro amounts are replaced, however the text is cut. */
import { describe, expect, it } from "vitest";
import { ASSISTANT_MESSAGES } from "#app/assistant/protocol.ts";
import { PriceGuard, amountsIn } from "./price-guard.ts";

const Q = ASSISTANT_MESSAGES.unsupportedPrice;

describe("PriceGuard", () => {
  it("keeps grounded amounts and replaces the others with their « à partir de »", () => {
    const guard = new PriceGuard(new Set([89, 1299]));
    expect(guard.check("Port HDMI : à partir de 89 €, écran : à partir de 120 €, carte mère 1 299 €.")).toBe(
      `Port HDMI : à partir de 89 €, écran : ${Q}, carte mère 1 299 €.`,
    );
    expect(guard.replaced).toEqual([120]);
  });

  it("reads euros, EUR, decimals and French spaces", () => {
    expect(amountsIn("49,90 € ou 150 euros, 1 200 EUR, 2\u202f000\u00a0€, 3,99 €")).toEqual([
      49.9, 150, 1200, 2000, 3.99,
    ]);
  });

  it("leaves numbers that are not prices alone", () => {
    expect(new PriceGuard(new Set()).check("Sous Windows 11, sur un iPhone 13, redémarrez 2 fois.")).toBe(
      "Sous Windows 11, sur un iPhone 13, redémarrez 2 fois.",
    );
  });

  it("gives the same text streamed in any cut as checked at once, and never shows a digit it may replace", () => {
    const text = "Comptez à partir de 249 € pour l'écran et 89 € pour le port, soit 1 338 euros en tout.";
    const whole = new PriceGuard(new Set([89])).check(text);
    for (const size of [1, 2, 3, 5, 8]) {
      const guard = new PriceGuard(new Set([89]));
      let shown = "";
      for (let i = 0; i < text.length; i += size) {
        shown += guard.push(text.slice(i, i + size));
        expect(shown).not.toMatch(/249|1 338/);
      }
      shown += guard.flush();
      expect(shown).toBe(whole);
    }
    expect(whole).toBe(`Comptez ${Q} pour l'écran et 89 € pour le port, soit ${Q} en tout.`);
  });
});
