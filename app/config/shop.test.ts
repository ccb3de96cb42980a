import { describe, expect, it } from "vitest";
import { formatAddress, formatEuros, formatOpeningHours, mapsUrl, shop, telHref } from "./shop.ts";

describe("shop identity", () => {
  it("formats the opening hours of the spec in French", () => {
    expect(formatOpeningHours()).toEqual([
      "Du lundi au vendredi : 9h – 14h",
      "Du lundi au vendredi : 14h – 19h sur rendez-vous",
    ]);
  });

  it("formats euros the French way, with a narrow no-break space", () => {
    expect(formatEuros(shop.legal.capitalEuros).replace(/\s/gu, " ")).toBe("15 000 €");
    expect(formatEuros(3.99, 2).replace(/\s/gu, " ")).toBe("3,99 €");
  });

  it("builds a maps link and a tel: link from the one source", () => {
    expect(mapsUrl()).toContain(encodeURIComponent(formatAddress()));
    expect(telHref).toBe(`tel:${shop.phone.e164}`);
  });
});
