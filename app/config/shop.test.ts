import { describe, expect, it } from "vitest";
import { defaultShop, formatAddress, formatEuros, formatOpeningHours, mapsUrl, telHref } from "./shop.ts";

describe("shop identity", () => {
  it("formats the opening hours of the spec in French", () => {
    expect(formatOpeningHours(defaultShop.openingHours)).toEqual([
      "Du lundi au vendredi : 9h – 14h",
      "Du lundi au vendredi : 14h – 19h sur rendez-vous",
    ]);
  });

  it("names single days and days that are not one run (issue 29: any days the manager ticks)", () => {
    expect(
      formatOpeningHours([
        { days: [6], opens: "09:30", closes: "12:00", byAppointment: false },
        { days: [1, 3, 5], opens: "14:00", closes: "18:00", byAppointment: false },
      ]),
    ).toEqual(["Le samedi : 9h30 – 12h", "Les lundi, mercredi et vendredi : 14h – 18h"]);
  });

  it("formats euros the French way, with a narrow no-break space", () => {
    expect(formatEuros(defaultShop.legal.capitalEuros).replace(/\s/gu, " ")).toBe("15 000 €");
    expect(formatEuros(3.99, 2).replace(/\s/gu, " ")).toBe("3,99 €");
  });

  it("builds a maps link and a tel: link from the identity given", () => {
    expect(mapsUrl(defaultShop.address)).toContain(encodeURIComponent(formatAddress(defaultShop.address)));
    expect(telHref(defaultShop)).toBe("tel:+33199001234");
  });
});
