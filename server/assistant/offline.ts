/**
 * The offline assistant (issue 7; exact answers, issue 17), used when no AI
 * provider is configured: French answers from the catalogue
 * (`knowledge.ts`) and the shop's facts (`facts.ts`) only, in well under a
 * millisecond, with no request anywhere.
 *
 * - A model it recognises gets its price for the repair named ("Combien
 *   coûte le port HDMI d'une PS5 ?" → "à partir de 89 €" with the page link),
 *   with the prices of its variants ("PS4" → "PS4 Slim", "PS4 Pro"), and
 *   the booking form pre-filled for it (« Prendre rendez-vous : Port HDMI, PS5 »,
 *   issue 18 §4);
 * - several models fitting equally are listed with their prices, and the
 *   customer is asked which one;
 * - a model the catalogue lacks gets "not in our catalogue" with the quote
 *   form's link (never a neighbour's price); a computer (priced after the
 *   diagnosis, spec's PC repair page) gets that page and the booking form
 *   for a free diagnosis;
 * - a slow computer, phone or tablet ("Mon ordinateur est très lent, que
 *   faire ?") gets first steps to try, then the offer of a technician
 *   (`first-steps.ts`, issue 40);
 * - fact questions (hourly rate, hours, address, warranties…) get the facts,
 *   never "modèle non trouvé";
 * - anything else: how to reach the shop or a technician (« Parler à un
 *   technicien » hands this conversation over, issue 18 §4).
 * Issue 40: every page an answer points to is a named Markdown link
 * (`nameBarePaths`, « [Réparation PlayStation : PS5](/services/playstation-repair#ps5) »),
 * and no answer starts with « (Réponse de l'assistant automatique de
 * l'atelier.) » any more: the chat says who speaks. Spec §5: an empty message
 * gets "Je n'ai pas bien compris…".
 */
import { fold } from "#app/catalogue/search.ts";
import type { Brand } from "#app/catalogue/shapes.ts";
import { ASSISTANT_MESSAGES } from "#app/assistant/protocol.ts";
import { nameBarePaths, sitePathName } from "#app/assistant/reply-links.ts";
import { defaultShop, QUOTE_REPLY_HOURS, type ShopIdentity } from "#app/config/shop.ts";
import { factAnswer, factTopics } from "./facts.ts";
import { firstStepsAnswer, slowDevice } from "./first-steps.ts";
import { lookupRepairPrices, type PriceLookup, type QuotedModel, type QuotedRepair } from "./knowledge.ts";

/** The first sentence of the answer for a model the catalogue lacks. */
export const NOT_FOUND_TEXT = "Je n'ai pas trouvé ce modèle dans notre catalogue de réparations.";

const ESTIMATE = " (tarif indicatif, confirmé au diagnostic)";
const line = (repair: QuotedRepair) => `- ${repair.repair} : ${repair.price}${repair.estimate ? ESTIMATE : ""}`;

/** "Écran à partir de 189 €" for the named repairs, or the cheapest repair's "à partir de 39 € selon la réparation". */
function shortQuote(model: QuotedModel, repairNamed: boolean): string {
  if (repairNamed) return model.repairs.map((repair) => `${repair.repair} ${repair.price}`).join(", ");
  const cheapest = model.repairs.reduce((a, b) => (b.euros < a.euros ? b : a));
  return `${cheapest.price} selon la réparation`;
}

function priceAnswer(lookup: PriceLookup): string {
  if (lookup.kind === "found") {
    const { model, repairNamed, variants } = lookup;
    const intro = repairNamed
      ? `Pour votre ${model.model} (${model.brand}) :`
      : `Voici nos tarifs de réparation pour ${model.model} (${model.brand}) :`;
    const others =
      variants.length > 0
        ? [
            `Autres versions : ${variants.map((variant) => `${variant.model} (${shortQuote(variant, repairNamed)})`).join(" ; ")}. Dites-moi si vous avez l'un de ces modèles.`,
          ]
        : [];
    return [
      intro,
      ...model.repairs.map(line),
      ...others,
      `Le détail est sur la page ${model.link}. Le diagnostic est gratuit ; le prix exact vous est confirmé avant toute intervention.`,
      // Issue 18 §4, named by `nameBarePaths` (issue 40): « Prendre rendez-vous : Port HDMI, PS5 ».
      lookup.booking,
    ].join("\n");
  }
  if (lookup.kind === "ambiguous") {
    return [
      "Plusieurs modèles correspondent à votre question. Lequel est le vôtre ?",
      ...lookup.candidates.map(
        (candidate) => `- ${candidate.model} (${candidate.brand}) : ${shortQuote(candidate, lookup.repairNamed)}`,
      ),
      `Précisez le modèle exact et je vous donne son tarif. Les tarifs sont aussi sur la page ${lookup.candidates[0]!.link.split("#")[0]}.`,
    ].join("\n");
  }
  const brandPages = lookup.brands.map(
    (brand) => `Les modèles ${brand.brand} que nous réparons sont sur la page ${brand.link}.`,
  );
  return [
    `${NOT_FOUND_TEXT} Indiquez la marque et le modèle exacts (par exemple « écran iPhone 13 » ou « port HDMI PS5 »), ou [demandez un devis gratuit](/contact) : nous vous répondons sous ${QUOTE_REPLY_HOURS} heures.`,
    ...brandPages,
  ].join(" ");
}

/** Words for a computer: the catalogue lists phones, tablets and consoles; computers are repaired after a diagnosis. */
const ABOUT_A_COMPUTER = /\b(pc|ordinateur|ordinateurs|ordi|laptop|macbook|imac|mac|chromebook|unite centrale)\b/;

/** The answer for a computer (spec §2 "Réparation PC"): its page and the booking form for a free diagnosis. */
const COMPUTER_ANSWER = [
  "Nous réparons les ordinateurs portables et fixes : écran, clavier, batterie et charge, SSD, surchauffe, virus, récupération de données, carte mère.",
  "Le diagnostic est gratuit et le prix vous est confirmé par un devis avant toute intervention ; le détail est sur la page /services/pc-repair.",
  "[Prendre rendez-vous pour un diagnostic gratuit](/rendez-vous) — ou [demandez un devis](/contact). Pour un souci logiciel, un technicien peut aussi intervenir à distance : cliquez sur « Parler à un technicien ».",
].join("\n");

/** Words that make a question about a repair or a price, when no model is found. */
const ABOUT_A_REPAIR = /\b(prix|tarif|combien|cout|devis|repar|changer|change|remplac|casse|cassee|ecran|batterie)/;

/**
 * The offline answer to `message` (the customer's last message), in French.
 * Pure and synchronous. `shop`: the identity whose facts it states (issue 29: the current one).
 */
export function offlineAnswer(message: string, brands: readonly Brand[], shop: ShopIdentity = defaultShop): string {
  return offlineReply(message, brands, shop).text;
}

/**
 * `offlineAnswer` with the catalogue lookups it answered from (the evaluation
 * grades both): one, or one per model when the message names several.
 */
export function offlineReply(
  message: string,
  brands: readonly Brand[],
  shop: ShopIdentity = defaultShop,
): { text: string; lookups: PriceLookup[] } {
  const text = fold(message.trim());
  if (!text) return { text: ASSISTANT_MESSAGES.emptyMessage, lookups: [] };
  const parts: string[] = [];
  const topics = factTopics(message);
  const lookups = lookupRepairPrices(message, brands);
  const first = lookups[0]!;
  const computer = lookups.length === 1 && first.kind === "not-found" && ABOUT_A_COMPUTER.test(text);
  // Issue 40: "what do I do, it is slow" wants steps to try first, not the repairs' list.
  const slow = slowDevice(text, ABOUT_A_COMPUTER.test(text), lookups, brands);
  if (slow) parts.push(firstStepsAnswer(slow, first.kind === "found" ? first.booking : undefined));
  else if (lookups.length > 1 || first.kind !== "not-found") parts.push(...lookups.map(priceAnswer));
  // Computers are priced after the diagnosis, and their words name no brand page ("MacBook Air" is no iPad Air).
  else if (computer) parts.push(COMPUTER_ANSWER);
  else if (topics.length === 0 && (first.brands.length > 0 || ABOUT_A_REPAIR.test(text)))
    parts.push(priceAnswer(first));
  // The quote topic only repeats what a price answer already says about quotes.
  for (const topic of topics) if (!(topic === "quote" && parts.length > 0)) parts.push(factAnswer(topic, shop));
  if (parts.length === 0) {
    parts.push(
      `Je ne sais pas répondre précisément à cette question. Un technicien de l'atelier peut vous aider : appelez le ${shop.phone.display}, écrivez à ${shop.email}, ou cliquez sur « Parler à un technicien » sous cette conversation : il la verra en rejoignant votre session d'assistance à distance.`,
    );
  }
  return { text: nameBarePaths(parts.join("\n\n"), (path) => sitePathName(path, brands)), lookups };
}
