/**
 * JSON-LD builders (issue 3): shape of the schema.org nodes, offers priced
 * exactly as the catalogue, breadcrumb per family, and safe serialisation.
 */
import { describe, expect, it } from "vitest";
import { allOffers, brands, getBrand, type Brand } from "#app/catalogue/index.ts";
import { defaultShop as shop } from "#app/config/shop.ts";
import { brandPageData } from "./catalogue-pages.server";
import {
  CATALOGUE_CATEGORIES,
  breadcrumbList,
  catalogueTrail,
  cataloguePageGraph,
  categoryOfFamily,
  electronicsStore,
  lowerFirstWord,
  offerName,
  openingHours,
  repairOffers,
  serializeJsonLd,
  type JsonLd,
} from "./structured-data";

const origin = "https://www.atelier.example";

function brand(slug: string): Brand {
  const found = getBrand(slug);
  if (!found) throw new Error(`marque absente : ${slug}`);
  return found;
}

/** JSON round trip, so assertions see exactly what a crawler parses. */
const parsed = (data: JsonLd) => JSON.parse(serializeJsonLd(data)) as Record<string, unknown>;

describe("electronicsStore", () => {
  it("describes the shop of app/config/shop.ts as an ElectronicsStore", () => {
    expect(parsed(electronicsStore(origin, shop))).toEqual({
      "@type": "ElectronicsStore",
      "@id": `${origin}/#magasin`,
      name: shop.name,
      url: `${origin}/`,
      telephone: shop.phone.e164,
      email: shop.email,
      address: {
        "@type": "PostalAddress",
        streetAddress: shop.address.street,
        postalCode: shop.address.postalCode,
        addressLocality: shop.address.city,
        addressCountry: shop.address.country,
      },
      openingHoursSpecification: shop.openingHours.map((slot) =>
        expect.objectContaining({ opens: slot.opens, closes: slot.closes }),
      ),
    });
  });

  it("gives opening hours as schema.org weekdays and marks appointment-only slots", () => {
    const weekdays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"].map((day) => `https://schema.org/${day}`);
    expect(openingHours({ days: [1, 2, 3, 4, 5], opens: "09:00", closes: "14:00", byAppointment: false })).toEqual({
      "@type": "OpeningHoursSpecification",
      dayOfWeek: weekdays,
      opens: "09:00",
      closes: "14:00",
    });
    expect(openingHours({ days: [6], opens: "14:00", closes: "19:00", byAppointment: true })).toMatchObject({
      dayOfWeek: ["https://schema.org/Saturday"],
      description: "Sur rendez-vous",
    });
  });

  it("refuses a weekday outside 1–7", () => {
    expect(() => openingHours({ days: [0], opens: "09:00", closes: "12:00", byAppointment: false })).toThrow(
      RangeError,
    );
  });
});

describe("breadcrumbs", () => {
  it("go Accueil → Réparation → category → brand, with absolute URLs", () => {
    const iphone = brand("iphone");
    expect(breadcrumbList(origin, catalogueTrail(categoryOfFamily(iphone.family), iphone))).toEqual({
      "@type": "BreadcrumbList",
      itemListElement: [
        { "@type": "ListItem", position: 1, name: "Accueil", item: `${origin}/` },
        { "@type": "ListItem", position: 2, name: "Réparation", item: `${origin}/repair` },
        {
          "@type": "ListItem",
          position: 3,
          name: "Réparation smartphone",
          item: `${origin}/services/smartphone-repair`,
        },
        { "@type": "ListItem", position: 4, name: "Réparation iPhone", item: `${origin}/services/iphone-repair` },
      ],
    });
  });

  it("put every brand under its own category page", () => {
    const expected = { smartphone: "smartphone", iphone: "smartphone", tablet: "tablet", console: "console" } as const;
    for (const b of brands) expect(categoryOfFamily(b.family), b.slug).toBe(CATALOGUE_CATEGORIES[expected[b.family]]);
  });

  it("stop at the category on a category page", () => {
    expect(catalogueTrail(CATALOGUE_CATEGORIES.pc).map((crumb) => crumb.path)).toEqual([
      "/",
      "/repair",
      "/services/pc-repair",
    ]);
  });
});

describe("repair offers", () => {
  it("name the repair and the model", () => {
    expect(offerName("Écran", "iPhone 13")).toBe("Réparation écran iPhone 13");
    expect(offerName("Port HDMI", "PS5")).toBe("Réparation port HDMI PS5");
    expect(offerName("Joy-Con", "Switch")).toBe("Réparation Joy-Con Switch");
    expect(lowerFirstWord("GamePad")).toBe("GamePad");
    expect(lowerFirstWord("Vitre arrière")).toBe("vitre arrière");
  });

  it("are one Offer per catalogue repair, at the catalogue's minimum price, taxes included", () => {
    for (const b of brands) {
      const expected = allOffers().filter((offer) => offer.brandSlug === b.slug);
      const offers = repairOffers(origin, b).map(parsed);
      expect(offers, b.slug).toHaveLength(expected.length);
      offers.forEach((offer, i) => {
        const source = expected[i]!;
        expect(offer).toEqual({
          "@type": "Offer",
          name: offerName(source.repairLabel, source.model),
          url: `${origin}${source.href}`,
          itemOffered: { "@type": "Service", serviceType: source.repairLabel },
          priceSpecification: {
            "@type": "PriceSpecification",
            minPrice: source.euros,
            priceCurrency: "EUR",
            valueAddedTaxIncluded: true,
          },
        });
      });
    }
  });

  it("are the same whether built from the catalogue or from a brand page's loader data", () => {
    for (const b of brands) expect(repairOffers(origin, brandPageData(b).brand)).toEqual(repairOffers(origin, b));
  });

  it("include the spec's exact prices, e.g. PS5 Blu-ray drive 129 € and Toshiba Excite Pro screen 199 €", () => {
    const find = (slug: string, name: string) =>
      repairOffers(origin, brand(slug))
        .map(parsed)
        .find((offer) => offer.name === name) as { priceSpecification: { minPrice: number } } | undefined;
    expect(find("playstation", "Réparation lecteur Blu-ray PS5")?.priceSpecification.minPrice).toBe(129);
    expect(find("toshiba-tablet", "Réparation écran Excite Pro")?.priceSpecification.minPrice).toBe(199);
    expect(find("nintendo", "Réparation Joy-Con Switch OLED")?.priceSpecification.minPrice).toBe(59);
  });
});

describe("cataloguePageGraph", () => {
  it("holds the breadcrumb and the store, with an OfferCatalog on brand pages", () => {
    const xbox = brand("xbox");
    const graph = parsed(cataloguePageGraph(origin, shop, catalogueTrail(CATALOGUE_CATEGORIES.console, xbox), xbox));
    expect(graph["@context"]).toBe("https://schema.org");
    const nodes = graph["@graph"] as Record<string, unknown>[];
    expect(nodes.map((node) => node["@type"])).toEqual(["BreadcrumbList", "ElectronicsStore"]);
    expect(nodes[1]?.hasOfferCatalog).toMatchObject({
      "@type": "OfferCatalog",
      name: "Réparation Xbox",
      url: `${origin}/services/xbox-repair`,
      itemListElement: repairOffers(origin, xbox).map(parsed),
    });
  });

  it("has no offers on category pages", () => {
    const graph = parsed(cataloguePageGraph(origin, shop, catalogueTrail(CATALOGUE_CATEGORIES.tablet)));
    const nodes = graph["@graph"] as Record<string, unknown>[];
    expect(nodes[1]).not.toHaveProperty("hasOfferCatalog");
  });
});

describe("serializeJsonLd", () => {
  it("escapes what could close or alter the <script> element, and still parses to the same value", () => {
    const data = { name: "</script><script>alert(1)</script><!-- & \u2028 \u2029" };
    const text = serializeJsonLd(data);
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(text).toContain("\\u003c/script\\u003e");
    expect(text).toContain("\\u0026");
    expect(JSON.parse(text)).toEqual(data);
  });

  it("writes a whole brand page's graph without any '<'", () => {
    const iphone = brand("iphone");
    const text = serializeJsonLd(
      cataloguePageGraph(origin, shop, catalogueTrail(CATALOGUE_CATEGORIES.smartphone, iphone), iphone),
    );
    expect(text).not.toContain("<");
    expect(JSON.parse(text)).toHaveProperty("@graph");
  });
});
