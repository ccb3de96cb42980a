/**
 * The shop's identity's DEFAULTS (issue 2; issue 29: the manager edits the identity in the dashboard's
 * « Boutique » view, stored in the database; these values apply until then, and whenever the stored
 * value no longer validates). Pages read the current identity with `useShop()` (root loader data),
 * server code with `ShopSource.current()` (`server/shop/identity.ts`), never this constant directly
 * except as that fallback. The helpers below are pure and take the identity (or its part) as a parameter.
 *
 * EVERY VALUE BELOW IS A PLACEHOLDER for the shop to replace: the phone number
 * is in ARCEP's range reserved for fiction (01 99 00 xx xx), the e-mail uses
 * the reserved `.example` domain, and the names say "à renseigner".
 */
import { ShopIdentitySchema, type OpeningSlot, type ShopIdentity, type ShopIdentityInput } from "./shop-schema.ts";

export type { OpeningSlot, ShopIdentity, ShopIdentityInput };

const DEFAULT_INPUT = {
  name: "Atelier Informatique",
  tagline: "Réparation, vente et assistance informatique",
  phone: "01 99 00 12 34",
  email: "contact@atelier-informatique.example",
  address: {
    street: "1 rue de l'Exemple",
    postalCode: "75000",
    city: "Paris",
    country: "FR",
  },
  /** Spec §9: Mon–Fri 9h–14h, and 14h–19h by appointment. */
  openingHours: [
    { days: [1, 2, 3, 4, 5], opens: "09:00", closes: "14:00", byAppointment: false },
    { days: [1, 2, 3, 4, 5], opens: "14:00", closes: "19:00", byAppointment: true },
  ],
  legal: {
    entity: "Atelier Informatique SAS (raison sociale à renseigner)",
    form: "Société par actions simplifiée",
    /** Spec §9: share capital in euros. */
    capitalEuros: 15_000,
    registration: "RCS Paris 000 000 000 (à renseigner)",
    vatNumber: "FR00 000000000 (à renseigner)",
    publicationDirector: "Prénom Nom (directeur de la publication, à renseigner)",
    host: {
      name: "Hébergeur à renseigner",
      address: "Adresse de l'hébergeur à renseigner",
      phone: "Téléphone de l'hébergeur à renseigner",
    },
  },
} satisfies ShopIdentityInput;

/** The default identity, parsed by the same schema as a stored one (so the defaults can never be invalid). */
export const defaultShop: ShopIdentity = ShopIdentitySchema.parse(DEFAULT_INPUT);

/**
 * Where server code reads the identity at the time it acts (issue 29): `current()` is synchronous and
 * cheap (kept in memory by `server/shop/identity.ts`). Services take one; tests may omit it.
 */
export type ShopSource = { current(): ShopIdentity };

/** A source that always answers `identity` (the defaults unless given): tests and tools without a database. */
export function fixedShop(identity: ShopIdentity = defaultShop): ShopSource {
  return { current: () => identity };
}

/**
 * How long contact and quote requests are kept after the last exchange, years (GDPR notice, legal
 * notices, the purge's default): the retention policy, not the shop's identity, so not editable online.
 */
export const REQUEST_RETENTION_YEARS = 3;

/** Spec §9: the technician's hourly rate, € per hour (the assistant cites it; issue 17 §2). */
export const TECHNICIAN_HOURLY_RATE_EUROS = 80;

/** Spec §9 "Quote reply promise: 48 hours": the quote form's confirmation and the assistant say it. */
export const QUOTE_REPLY_HOURS = 48;

/** One line postal address, e.g. "1 rue de l'Exemple, 75000 Paris". */
export function formatAddress(address: ShopIdentity["address"]): string {
  return `${address.street}, ${address.postalCode} ${address.city}`;
}

/** A maps search link for the shop's address (a plain link: no request until clicked). */
export function mapsUrl(address: ShopIdentity["address"]): string {
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(formatAddress(address))}`;
}

/** "tel:+33199001234" */
export function telHref(shop: Pick<ShopIdentity, "phone">): string {
  return `tel:${shop.phone.e164}`;
}
/** "mailto:contact@…" */
export function mailtoHref(shop: Pick<ShopIdentity, "email">): string {
  return `mailto:${shop.email}`;
}

const hourFormat = (hhmm: string) => {
  const [h, m] = hhmm.split(":");
  return m === "00" ? `${Number(h)}h` : `${Number(h)}h${m}`;
};

const dayNames = ["", "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"];

/** "Le lundi", "Du lundi au vendredi", or "Les lundi, mercredi et vendredi" (days not in one run). */
function formatDays(days: readonly number[]): string {
  const first = days[0] ?? 1;
  const last = days[days.length - 1] ?? first;
  if (days.length === 1) return `Le ${dayNames[first]}`;
  if (last - first === days.length - 1) return `Du ${dayNames[first]} au ${dayNames[last]}`;
  const names = days.map((day) => dayNames[day]);
  return `Les ${names.slice(0, -1).join(", ")} et ${names.at(-1)}`;
}

/**
 * French lines for the opening hours (days sorted, as the schema leaves them; the defaults' when not given),
 * e.g.
 * `["Du lundi au vendredi : 9h – 14h", "Du lundi au vendredi : 14h – 19h sur rendez-vous"]`.
 */
export function formatOpeningHours(slots: readonly OpeningSlot[] = defaultShop.openingHours): string[] {
  return slots.map((slot) => {
    const suffix = slot.byAppointment ? " sur rendez-vous" : "";
    return `${formatDays(slot.days)} : ${hourFormat(slot.opens)} – ${hourFormat(slot.closes)}${suffix}`;
  });
}

/** Re-exported: amounts in euros are formatted by `#app/utils/euros.ts`, which client code imports without zod. */
export { formatEuros } from "#app/utils/euros.ts";
