/**
 * Builders of the JSON-LD (schema.org) data of the repair catalogue pages
 * (repair catalogue §2 and §9; issue 3): the breadcrumb, the shop as an
 * `ElectronicsStore`, and every repair of a brand page as an `Offer` whose
 * minimum price is the catalogue's. Pure functions: the caller passes the
 * site's origin (PUBLIC_URL, from the root loader) and the catalogue data.
 *
 * This module imports only types from the catalogue, so a page that uses it
 * does not pull the whole catalogue into its client bundle.
 *
 * Units: prices are whole euros (€), minimums ("à partir de"), taxes included.
 */
import type { Family } from "#app/catalogue/index.ts";
import type { OpeningSlot, ShopIdentity } from "#app/config/shop.ts";

/** A JSON-LD node: plain JSON values only (what `JSON.stringify` writes as is). */
export type JsonLd = { readonly [key: string]: JsonValue };
type JsonValue = string | number | boolean | null | JsonLd | readonly JsonValue[];

/**
 * The part of a brand that the offers need. Both the catalogue's `Brand` and
 * a brand page's loader data fit, so pages pass what they already hold.
 */
export type OfferSource = {
  readonly title: string;
  /** The brand page, e.g. "/services/iphone-repair". */
  readonly path: string;
  readonly series: readonly {
    readonly models: readonly {
      readonly name: string;
      /** Anchor of the model card on the brand page. */
      readonly slug: string;
      /** `euros`: whole euros, minimum price. */
      readonly repairs: readonly { readonly label: string; readonly euros: number }[];
    }[];
  }[];
};

/** One step of a breadcrumb: its visible name and its path on the site (e.g. "/repair"). */
export type Crumb = { readonly name: string; readonly path: string };

/** The catalogue's four category pages (spec §2 route table), by product family. */
export const CATALOGUE_CATEGORIES = {
  pc: { name: "Réparation PC", path: "/services/pc-repair" },
  smartphone: { name: "Réparation smartphone", path: "/services/smartphone-repair" },
  tablet: { name: "Réparation tablette", path: "/services/tablet-repair" },
  console: { name: "Réparation console", path: "/services/console-repair" },
} as const satisfies Record<string, Crumb>;

/** The category page a brand belongs to (the iPhone page sits under smartphones). */
export function categoryOfFamily(family: Family): Crumb {
  return family === "iphone" ? CATALOGUE_CATEGORIES.smartphone : CATALOGUE_CATEGORIES[family];
}

/**
 * The breadcrumb of a catalogue page: Accueil → Réparation (/repair) →
 * category → brand (the brand step only on brand pages).
 */
export function catalogueTrail(category: Crumb, brand?: { readonly title: string; readonly path: string }): Crumb[] {
  const trail: Crumb[] = [{ name: "Accueil", path: "/" }, { name: "Réparation", path: "/repair" }, category];
  if (brand) trail.push({ name: brand.title, path: brand.path });
  return trail;
}

/** Absolute URL of a site path on `origin` (e.g. "https://www.atelier.fr"). */
function absolute(origin: string, path: string): string {
  return new URL(path, origin).href;
}

/** The store's node id, so offers and pages can point at one shop node. */
export function storeId(origin: string): string {
  return `${absolute(origin, "/")}#magasin`;
}

/** A schema.org `BreadcrumbList`, positions from 1, items as absolute URLs. */
export function breadcrumbList(origin: string, trail: readonly Crumb[]): JsonLd {
  return {
    "@type": "BreadcrumbList",
    itemListElement: trail.map((crumb, index) => ({
      "@type": "ListItem",
      position: index + 1,
      name: crumb.name,
      item: absolute(origin, crumb.path),
    })),
  };
}

const WEEKDAYS = ["", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"] as const;

function weekday(isoDay: number): string {
  const name = WEEKDAYS[isoDay];
  if (!name) throw new RangeError(`Jour ISO invalide dans shop.openingHours : ${isoDay} (attendu 1 à 7)`);
  return `https://schema.org/${name}`;
}

/** schema.org `OpeningHoursSpecification` of one slot of `shop.openingHours` (ISO weekdays, local "HH:MM"). */
export function openingHours(slot: OpeningSlot): JsonLd {
  return {
    "@type": "OpeningHoursSpecification",
    dayOfWeek: slot.days.map(weekday),
    opens: slot.opens,
    closes: slot.closes,
    // schema.org has no "by appointment" flag: say it in words rather than drop the slot.
    ...(slot.byAppointment ? { description: "Sur rendez-vous" } : {}),
  };
}

/**
 * The shop's identity (issue 29: the current one, from the root loader) as a schema.org
 * `ElectronicsStore` (a `LocalBusiness`): name, telephone (E.164), e-mail, postal address and
 * opening hours.
 */
export function electronicsStore(origin: string, shop: ShopIdentity): JsonLd {
  return {
    "@type": "ElectronicsStore",
    "@id": storeId(origin),
    name: shop.name,
    url: absolute(origin, "/"),
    telephone: shop.phone.e164,
    email: shop.email,
    address: {
      "@type": "PostalAddress",
      streetAddress: shop.address.street,
      postalCode: shop.address.postalCode,
      addressLocality: shop.address.city,
      addressCountry: shop.address.country,
    },
    openingHoursSpecification: shop.openingHours.map(openingHours),
  };
}

/**
 * "Écran" → "écran", "Port HDMI" → "port HDMI", but "GamePad" and "Joy-Con"
 * stay as they are: a first word with a capital inside is a product name.
 */
export function lowerFirstWord(label: string): string {
  const firstWord = label.split(" ")[0] ?? "";
  if (/\p{Lu}/u.test(firstWord.slice(1))) return label;
  return label.charAt(0).toLocaleLowerCase("fr-FR") + label.slice(1);
}

/** The offer name, e.g. "Réparation écran iPhone 13". */
export function offerName(repairLabel: string, modelName: string): string {
  return `Réparation ${lowerFirstWord(repairLabel)} ${modelName}`;
}

/**
 * Every repair of a brand as a schema.org `Offer` (display order): its name,
 * the model card's URL (`<brand path>#<model slug>`), the `Service` (its
 * repair type), and a `PriceSpecification` whose `minPrice` is the catalogue's
 * price in whole euros, taxes included.
 */
export function repairOffers(origin: string, brand: OfferSource): JsonLd[] {
  // A brand page lists up to 200 offers: each says only what differs (the store is their
  // catalogue's owner, so no provider per offer), which keeps the HTML light.
  return brand.series.flatMap((series) =>
    series.models.flatMap((model) =>
      model.repairs.map((repair): JsonLd => ({
        "@type": "Offer",
        name: offerName(repair.label, model.name),
        url: absolute(origin, `${brand.path}#${model.slug}`),
        itemOffered: { "@type": "Service", serviceType: repair.label },
        priceSpecification: {
          "@type": "PriceSpecification",
          minPrice: repair.euros,
          priceCurrency: "EUR",
          valueAddedTaxIncluded: true,
        },
      })),
    ),
  );
}

/**
 * The JSON-LD document of a catalogue page: a `@graph` with the breadcrumb
 * and the store; on a brand page the store also carries an `OfferCatalog`
 * of every repair of the brand.
 */
export function cataloguePageGraph(
  origin: string,
  shop: ShopIdentity,
  trail: readonly Crumb[],
  brand?: OfferSource,
): JsonLd {
  const store = electronicsStore(origin, shop);
  const storeWithOffers: JsonLd = brand
    ? {
        ...store,
        hasOfferCatalog: {
          "@type": "OfferCatalog",
          name: brand.title,
          url: absolute(origin, brand.path),
          itemListElement: repairOffers(origin, brand),
        },
      }
    : store;
  return { "@context": "https://schema.org", "@graph": [breadcrumbList(origin, trail), storeWithOffers] };
}

/**
 * JSON text safe inside `<script type="application/ld+json">`: `<`, `>` and
 * `&` become `\u003c`, `\u003e`, `\u0026` (so no "</script>" or "<!--" can end
 * or alter the element), and U+2028/U+2029 are escaped too. The result still
 * parses to the same value with `JSON.parse`.
 */
export function serializeJsonLd(data: JsonLd): string {
  return JSON.stringify(data)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}
