/**
 * Issue 40, « Placeholder text reaches the public site »: which values of the shop's identity are still the
 * site's examples (`app/config/shop.ts`), for the manager's « Mise en ligne » checklist, and what visitors
 * read in the privacy notices meanwhile. Pure: no server or browser APIs.
 *
 * A value is an example when it says « à renseigner » (every legal placeholder does) or is still exactly the
 * default: a shop never types « 1 rue de l'Exemple », an address at `.example` (reserved, RFC 2606) or a
 * number of ARCEP's range kept for fiction (01 99 00 xx xx).
 */
import { defaultShop, type ShopIdentity } from "./shop.ts";

const TO_FILL = /à renseigner/i;

/** One field of « Boutique » whose default is an example: its form label and how to read it. */
type ExampleField = { label: string; read: (shop: ShopIdentity) => string };

/** The legal notices' fields (labels of the « Boutique » form), in its order. */
const LEGAL_FIELDS: readonly ExampleField[] = [
  { label: "Raison sociale", read: (shop) => shop.legal.entity },
  { label: "Immatriculation (RCS)", read: (shop) => shop.legal.registration },
  { label: "Numéro de TVA intracommunautaire", read: (shop) => shop.legal.vatNumber },
  { label: "Directeur de la publication", read: (shop) => shop.legal.publicationDirector },
  { label: "Nom de l'hébergeur", read: (shop) => shop.legal.host.name },
  { label: "Adresse de l'hébergeur", read: (shop) => shop.legal.host.address },
  { label: "Téléphone de l'hébergeur", read: (shop) => shop.legal.host.phone },
];

/** The contact details customers use (labels of the « Boutique » form). */
const CONTACT_FIELDS: readonly ExampleField[] = [
  { label: "Téléphone", read: (shop) => shop.phone.display },
  { label: "Adresse e-mail", read: (shop) => shop.email },
  { label: "Rue", read: (shop) => shop.address.street },
];

/** Whether `value` is still an example: it says « à renseigner », or is the default `example` unchanged. */
export function isExampleValue(value: string, example: string): boolean {
  return TO_FILL.test(value) || value.trim() === example.trim();
}

/** Extra signs of an example contact value beyond equality with the default (a reserved domain, a fiction number). */
function looksInvented(label: string, value: string): boolean {
  if (label === "Adresse e-mail") return /\.example$/i.test(value.trim());
  if (label === "Téléphone") return /^01 99 00 /.test(value);
  return false;
}

/** Labels of the legal fields still holding an example, in the form's order (empty when all are filled in). */
export function exampleLegalFields(shop: ShopIdentity): string[] {
  return LEGAL_FIELDS.filter((field) => isExampleValue(field.read(shop), field.read(defaultShop))).map(
    (field) => field.label,
  );
}

/** Labels of the contact fields still holding an example (the fiction phone, the `.example` address…). */
export function exampleContactFields(shop: ShopIdentity): string[] {
  return CONTACT_FIELDS.filter((field) => {
    const value = field.read(shop);
    return isExampleValue(value, field.read(defaultShop)) || looksInvented(field.label, value);
  }).map((field) => field.label);
}

/**
 * Who processes visitors' data, as the privacy notices name it: the legal entity once the manager has typed
 * it, and until then the shop's own name (« Atelier Informatique »). Visitors dealing with the shop under its
 * name are told the truth without reading « (raison sociale à renseigner) »; the manager is told by « Mise
 * en ligne » that the legal entity is missing.
 */
export function dataControllerName(shop: ShopIdentity): string {
  return isExampleValue(shop.legal.entity, defaultShop.legal.entity) ? shop.name : shop.legal.entity;
}
