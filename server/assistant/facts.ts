/**
 * The shop's facts as the assistant gives them (issue 17 §2; spec §9), from
 * the configuration the pages read — the shop's identity given by the caller (issue 29: the current
 * one, « Boutique »: contacts, address, hours), `app/config/shop.ts` (hourly rate, quote delay), `sales-promises.ts` (warranties, express repair,
 * free diagnosis) and `mailbox-plans.ts` — never typed here.
 *
 * - `factTopics(question)`: which facts a question asks for (French words,
 *   accents and case ignored), in a fixed order;
 * - `factAnswer(topic, shop)`: the French sentence for one topic (its
 *   links in Markdown, named where the sentence needs it, issue 40);
 * - `shopFacts(shop)`: every fact at once, the `shop_information` tool's answer;
 * - `FACT_AMOUNTS`: the euro amounts these facts contain (the price guard
 *   lets them through).
 */
import { fold } from "#app/catalogue/search.ts";
import { describeMailboxPlan, MAILBOX_PLANS } from "#app/config/mailbox-plans.ts";
import {
  formatDaysPerWeek,
  formatHours,
  formatMonths,
  formatYears,
  repairPromises,
  salesPromises,
} from "#app/config/sales-promises.ts";
import {
  formatAddress,
  formatEuros,
  formatOpeningHours,
  QUOTE_REPLY_HOURS,
  TECHNICIAN_HOURLY_RATE_EUROS,
  type ShopIdentity,
} from "#app/config/shop.ts";

export const FACT_TOPICS = [
  "hourly-rate",
  "opening-hours",
  "address",
  "phone",
  "email",
  "repair-warranty",
  "express-repair",
  "diagnosis",
  "quote",
  "sales-warranty",
  "mailbox-plans",
  "remote-support",
] as const;
export type FactTopic = (typeof FACT_TOPICS)[number];

/** Every euro amount the facts state (€): the hourly rate and the mailbox plans. */
export const FACT_AMOUNTS: readonly number[] = [
  TECHNICIAN_HOURLY_RATE_EUROS,
  ...MAILBOX_PLANS.map((plan) => plan.monthlyPriceEuros),
];

const PRICE = /\b(prix|tarif|taux|cout|combien|facture|factur|payer|cher)/;
const SALES = /\b(achat|achete|acheter|vente|vendu|vendez|neuf|neuve|reconditionn|extension|pc|ordinateur)/;

/** Each topic's test on the folded question (`fold`, then non-letters as spaces). */
const DETECTORS: Record<FactTopic, (text: string) => boolean> = {
  "hourly-rate": (t) =>
    /\b(tarif|taux|prix|cout) horaire/.test(t) ||
    (/\b(de l|par|a l|une) ?heure\b/.test(t) && PRICE.test(t)) ||
    (/\b(technicien|intervention|main d ?oeuvre|deplacement|depannage)/.test(t) && PRICE.test(t)),
  "opening-hours": (t) =>
    (/\bhoraires?\b(?! de technicien)/.test(t) && !/\b(tarif|taux|prix|cout) horaire/.test(t)) ||
    /\b(ouvert|ouverte|ouverts|ouvre|ouvrez|ouverture|ferme|fermez|fermeture|samedi|dimanche|rendez vous)\b/.test(t) ||
    /\ba quelle heure\b/.test(t),
  address: (t) =>
    /\badresse\b(?! (e ?mail|mail|electronique|de messagerie))/.test(t) ||
    /\bou (etes|se trouve|trouver|vous trouver|est situe|est l atelier|est la boutique)/.test(t) ||
    (/\b(situe|situes|localisation|venir|acces|plan d acces|boutique|magasin)\b/.test(t) && !/\bboite/.test(t)),
  // "téléphone" alone is often the device being repaired: the shop's number is asked with other words.
  phone: (t) => /\b(appeler|appelle|numero|joindre|contacter|tel)\b/.test(t) || /\b(votre|par|au) telephone\b/.test(t),
  email: (t) =>
    /\b(e ?mail|mail|courriel|adresse electronique|ecrire)\b/.test(t) &&
    !/\b(boite|boites|messagerie|forfait|go)\b/.test(t),
  "repair-warranty": (t) => /\bgaranti/.test(t) && (/\brepar/.test(t) || !SALES.test(t)),
  "express-repair": (t) =>
    /\b(express|rapide|rapidement|vite|combien de temps|duree|delai|attendre|en (1|une) heure|immobilis)/.test(t) &&
    !/\bdevis\b/.test(t) &&
    !/\bgaranti/.test(t),
  diagnosis: (t) => /\bdiagnosti/.test(t),
  quote: (t) => /\bdevis\b/.test(t),
  "sales-warranty": (t) => /\bgaranti/.test(t) && (SALES.test(t) || !/\brepar/.test(t)),
  "mailbox-plans": (t) =>
    /\b(boites? (mail|e ?mail|aux lettres)|messagerie|forfaits? (mail|e ?mail)|adresse mail pro)/.test(t),
  "remote-support": (t) =>
    /\b(a distance|assistance|session|prise en main|prendre la main|controle|partage d ecran|teamviewer|anydesk)\b/.test(
      t,
    ),
};

/** The topics `question` asks about, in `FACT_TOPICS` order (none: not a fact question). */
export function factTopics(question: string): FactTopic[] {
  const text = ` ${fold(question)
    .replace(/[^a-z0-9]+/g, " ")
    .trim()} `;
  return FACT_TOPICS.filter((topic) => DETECTORS[topic](text));
}

const eurosPerHour = () => `${formatEuros(TECHNICIAN_HOURLY_RATE_EUROS)} de l'heure`;

/** The French answer for one topic; `shop`: the identity to state (the current one). */
export function factAnswer(topic: FactTopic, shop: ShopIdentity): string {
  switch (topic) {
    case "hourly-rate":
      return `Un technicien intervient, à distance ou à l'atelier, au tarif de ${eurosPerHour()}. Appelez-nous au ${shop.phone.display} pour convenir d'un créneau.`;
    case "opening-hours":
      return `Nos horaires :\n${formatOpeningHours(shop.openingHours)
        .map((line) => `- ${line}`)
        .join("\n")}`;
    case "address":
      return `Notre adresse : ${formatAddress(shop.address)}.`;
    case "phone":
      return `Vous pouvez nous appeler au ${shop.phone.display}.`;
    case "email":
      return `Vous pouvez nous écrire à ${shop.email}.`;
    case "repair-warranty":
      return `Nos réparations avec pièces d'origine sont garanties ${formatMonths(repairPromises.warrantyMonths)}.`;
    case "express-repair":
      return `La plupart des réparations sont faites en ${repairPromises.expressRepairHours} heure sur place (réparation express).`;
    case "diagnosis":
      return "Le diagnostic est gratuit : nous identifions la panne sans frais avant tout devis.";
    case "quote":
      return `Le devis est gratuit : [demandez-le en ligne](/contact), nous vous répondons sous ${QUOTE_REPLY_HOURS} heures.`;
    case "sales-warranty":
      return [
        `Le matériel que nous vendons est garanti jusqu'à ${formatMonths(salesPromises.salesWarrantyMaxMonths)}`,
        `les PC jusqu'à ${formatYears(salesPromises.pcWarrantyMaxYearsWithExtension)} avec l'extension de garantie`,
        `les smartphones ${formatMonths(salesPromises.smartphoneWarrantyMonths)}, extensibles à ${formatMonths(salesPromises.smartphoneWarrantyExtendedMonths)}.`,
      ].join(" ; ");
    case "mailbox-plans":
      return `Nos boîtes mail :\n${MAILBOX_PLANS.map((plan) => `- ${describeMailboxPlan(plan)}`).join("\n")}\nLe détail est sur la page /dev-web.`;
    case "remote-support":
      return "Pour une assistance à distance : connectez-vous sur la page [Assistance à distance](/soft-assist), cliquez sur « Démarrer une session d'assistance », puis communiquez le code affiché au technicien par téléphone.";
  }
}

/** Every fact at once (the model's `shop_information` tool), in French where it is text; `shop`: the current identity. */
export function shopFacts(shop: ShopIdentity) {
  return {
    nom: shop.name,
    telephone: shop.phone.display,
    email: shop.email,
    adresse: formatAddress(shop.address),
    horaires: formatOpeningHours(shop.openingHours),
    tarifHoraireTechnicien: eurosPerHour(),
    garantieReparation: formatMonths(repairPromises.warrantyMonths),
    reparationExpress: `${repairPromises.expressRepairHours} heure sur place`,
    diagnostic: "gratuit",
    delaiReponseDevis: `${QUOTE_REPLY_HOURS} heures`,
    garantieVente: factAnswer("sales-warranty", shop),
    interventionEntreprise: `sous ${formatHours(salesPromises.businessInterventionHours)}`,
    assistanceSmartphone: `sous ${formatHours(salesPromises.smartphoneAssistanceHours)}`,
    supportPrioritaire: formatDaysPerWeek(salesPromises.prioritySupportDaysPerWeek),
    boitesMail: MAILBOX_PLANS.map((plan) => describeMailboxPlan(plan)),
    assistanceADistance: factAnswer("remote-support", shop),
    devis: factAnswer("quote", shop),
  };
}
