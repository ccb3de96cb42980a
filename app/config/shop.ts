/**
 * The shop's identity, in one place (issue 2): footer, contact page, legal
 * notices, and later the assistant and the structured data all read it.
 *
 * EVERY VALUE BELOW IS A PLACEHOLDER for the shop to replace: the phone number
 * is in ARCEP's range reserved for fiction (01 99 00 xx xx), the e-mail uses
 * the reserved `.example` domain, and the names say "à renseigner".
 */

export type OpeningSlot = {
  /** ISO weekday numbers, 1 = Monday … 7 = Sunday. */
  days: readonly number[];
  /** 24-hour "HH:MM" local time (Europe/Paris). */
  opens: string;
  closes: string;
  byAppointment: boolean;
};

export const shop = {
  name: "Atelier Informatique",
  /** Short tagline used in titles and the footer. */
  tagline: "Réparation, vente et assistance informatique",
  phone: { display: "01 99 00 12 34", e164: "+33199001234" },
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
  ] satisfies OpeningSlot[],
  legal: {
    entity: "Atelier Informatique SAS (raison sociale à renseigner)",
    form: "Société par actions simplifiée",
    /** Spec §9: share capital in euros. */
    capitalEuros: 15_000,
    /** How long contact and quote requests are kept after the last exchange (GDPR notice, legal notices). */
    requestRetentionYears: 3,
    registration: "RCS Paris 000 000 000 (à renseigner)",
    vatNumber: "FR00 000000000 (à renseigner)",
    publicationDirector: "Prénom Nom (directeur de la publication, à renseigner)",
    host: {
      name: "Hébergeur à renseigner",
      address: "Adresse de l'hébergeur à renseigner",
      phone: "Téléphone de l'hébergeur à renseigner",
    },
  },
} as const;

/** Spec §9: the technician's hourly rate, € per hour (the assistant cites it; issue 17 §2). */
export const TECHNICIAN_HOURLY_RATE_EUROS = 80;

/** Spec §9 "Quote reply promise: 48 hours": the quote form's confirmation and the assistant say it. */
export const QUOTE_REPLY_HOURS = 48;

/** One line postal address, e.g. "1 rue de l'Exemple, 75000 Paris". */
export function formatAddress(address = shop.address): string {
  return `${address.street}, ${address.postalCode} ${address.city}`;
}

/** A maps search link for the shop's address (a plain link: no request until clicked). */
export function mapsUrl(address = shop.address): string {
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(formatAddress(address))}`;
}

/** "tel:+33199001234" */
export const telHref = `tel:${shop.phone.e164}`;
/** "mailto:contact@…" */
export const mailtoHref = `mailto:${shop.email}`;

const hourFormat = (hhmm: string) => {
  const [h, m] = hhmm.split(":");
  return m === "00" ? `${Number(h)}h` : `${Number(h)}h${m}`;
};

const dayNames = ["", "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"];

/**
 * French lines for the opening hours, e.g.
 * `["Du lundi au vendredi : 9h – 14h", "Du lundi au vendredi : 14h – 19h sur rendez-vous"]`.
 */
export function formatOpeningHours(slots: readonly OpeningSlot[] = shop.openingHours): string[] {
  return slots.map((slot) => {
    const first = slot.days[0] ?? 1;
    const last = slot.days[slot.days.length - 1] ?? first;
    const days = slot.days.length === 1 ? `Le ${dayNames[first]}` : `Du ${dayNames[first]} au ${dayNames[last]}`;
    const suffix = slot.byAppointment ? " sur rendez-vous" : "";
    return `${days} : ${hourFormat(slot.opens)} – ${hourFormat(slot.closes)}${suffix}`;
  });
}

/** Capital in French formatting, e.g. "15 000 €". */
export function formatEuros(amount: number, fractionDigits = 0): string {
  let format = euroFormats.get(fractionDigits);
  if (!format) {
    format = new Intl.NumberFormat("fr-FR", {
      style: "currency",
      currency: "EUR",
      minimumFractionDigits: fractionDigits,
      maximumFractionDigits: fractionDigits,
    });
    euroFormats.set(fractionDigits, format);
  }
  return format.format(amount);
}

/** One formatter per number of decimals: building one costs far more than using it (the assistant formats thousands). */
const euroFormats = new Map<number, Intl.NumberFormat>();
