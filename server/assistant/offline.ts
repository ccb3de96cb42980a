/**
 * The offline assistant (issue 7), used when no AI provider is configured:
 * French answers from the catalogue and the shop's facts only
 * (`knowledge.ts`), in well under a millisecond, with no request anywhere.
 *
 * It answers a repair price for a model it recognises ("Combien coûte le
 * port HDMI d'une PS5 ?" → "à partir de 89 €" with the page link), the
 * opening hours, the address, the phone and e-mail, how to start a remote
 * session and the technician's rate; otherwise it proposes contacting the
 * shop or a technician. Every answer says it comes from an automatic
 * assistant. Spec §5: an empty message gets "Je n'ai pas bien compris…".
 */
import { fold } from "#app/catalogue/search.ts";
import { ASSISTANT_MESSAGES } from "#app/assistant/protocol.ts";
import { lookupRepairPrice, shopFacts, type PriceLookup } from "./knowledge.ts";

/** Said once at the top of each offline answer. */
export const OFFLINE_NOTICE = "(Réponse de l'assistant automatique de l'atelier.)";

const has = (text: string, words: readonly string[]) => words.some((word) => new RegExp(`\\b${word}`).test(text));

function priceAnswer(lookup: Extract<PriceLookup, { found: true }>): string {
  const lines = lookup.repairs.map(
    (repair) =>
      `- ${repair.repair} : ${repair.price}${repair.estimate ? " (tarif indicatif, confirmé au diagnostic)" : ""}`,
  );
  const intro = lookup.repairNamed
    ? `Pour votre ${lookup.model} (${lookup.brand}) :`
    : `Voici nos tarifs de réparation pour la ${lookup.model} (${lookup.brand}) :`;
  return [
    intro,
    ...lines,
    `Le détail est sur la page ${lookup.link}. Le diagnostic est gratuit ; le prix exact vous est confirmé avant toute intervention.`,
  ].join("\n");
}

/**
 * The offline answer to `message` (the customer's last message), in French.
 * Pure and synchronous.
 */
export function offlineAnswer(message: string): string {
  const text = fold(message.trim());
  if (!text) return ASSISTANT_MESSAGES.emptyMessage;
  const facts = shopFacts();
  const parts: string[] = [];

  const lookup = lookupRepairPrice(message);
  if (lookup.found) parts.push(priceAnswer(lookup));
  else if (has(text, ["prix", "tarif", "combien", "cout", "devis"])) {
    parts.push(
      "Je n'ai pas trouvé ce modèle dans notre catalogue de réparations. Indiquez la marque et le modèle exacts (par exemple « écran iPhone 13 » ou « port HDMI PS5 »), ou demandez un devis gratuit sur /contact.",
    );
  }
  if (has(text, ["horaire", "heure", "ouvert", "ouverture", "ferme", "quand"])) {
    parts.push(`Nos horaires :\n${facts.openingHours.map((line) => `- ${line}`).join("\n")}`);
  }
  if (has(text, ["adresse", "ou etes", "ou se trouve", "situe", "venir", "trouver", "plan"])) {
    parts.push(`Notre adresse : ${facts.address}.`);
  }
  if (has(text, ["telephone", "appeler", "numero", "joindre", "contacter", "mail", "e-mail", "email", "courriel"])) {
    parts.push(`Vous pouvez nous appeler au ${facts.phone} ou écrire à ${facts.email}.`);
  }
  if (has(text, ["distance", "session", "prise en main", "controle", "partage", "code"])) {
    parts.push(`Pour une assistance à distance : ${facts.remoteSupport}`);
  }
  if (has(text, ["technicien", "intervention", "tarif horaire", "deplacement"])) {
    parts.push(
      `Un technicien peut intervenir, à distance ou à l'atelier, au tarif de ${facts.technicianHourlyRateEuros} € de l'heure. Appelez-nous au ${facts.phone} pour convenir d'un créneau.`,
    );
  }
  if (parts.length === 0) {
    parts.push(
      `Je ne sais pas répondre précisément à cette question. Un technicien de l'atelier peut vous aider : appelez le ${facts.phone}, écrivez à ${facts.email}, ou démarrez une session d'assistance à distance depuis cette page.`,
    );
  }
  return `${OFFLINE_NOTICE}\n${parts.join("\n\n")}`;
}
