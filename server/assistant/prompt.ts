/**
 * What the model is told and what it may call (issue 7; spec §9 prompt): the
 * French system prompt and the two tools answering from `knowledge.ts`
 * (repair prices with the booking form's path for a model found, issue 18 §4;
 * shop facts). Ours, whichever `ChatProvider` carries them
 * (issue 14). Issue 40: first steps before a technician, and named links.
 */
import type { Brand } from "#app/catalogue/shapes.ts";
import { defaultShop, TECHNICIAN_HOURLY_RATE_EUROS, type ShopIdentity } from "#app/config/shop.ts";
import { shopFacts } from "./facts.ts";
import { lookupRepairPrices, quotedAmounts } from "./knowledge.ts";
import type { ToolCall, ToolDefinition } from "./provider.ts";

/**
 * Issue 40: how to answer « how do I fix X »: first the safe steps the customer can try, then a technician;
 * the repairs and their prices only when asked. Spec §9's « proposes a technician only when needed » holds:
 * the technician comes when the steps are not enough.
 */
export const FIRST_STEPS_RULE =
  "Quand le client décrit un problème ou demande quoi faire (« Mon ordinateur est très lent, que faire ? »), donne d'abord, en étapes numérotées, ce qu'il peut essayer lui-même sans risque (par exemple pour un ordinateur lent : redémarrer, fermer les programmes et les onglets inutiles, libérer de l'espace disque, installer les mises à jour, désactiver les programmes lancés au démarrage, lancer une analyse antivirus), puis, si cela ne suffit pas, propose un technicien : à distance avec le bouton « Parler à un technicien » sous la conversation, ou à l'atelier avec un diagnostic gratuit ([Prendre rendez-vous](/rendez-vous)). Ne donne la liste des réparations ou des prix que si le client demande une réparation ou un prix.";

/**
 * Issue 40: links are named (the chat renders `[nom](/chemin)` as a link named « nom », and only same-site
 * paths; `app/assistant/reply-links.ts`).
 */
export const LINKS_RULE =
  "Écris chaque lien vers une page du site en Markdown, avec un nom qui dit où il mène, jamais le chemin seul : « [Nous contacter](/contact) », « [Suivre ma réparation](/suivi) », « [Réparation iPhone : iPhone 13](/services/iphone-repair#iphone-13) ». Uniquement des chemins du site qui commencent par « / », jamais l'adresse d'un autre site, et aucune autre mise en forme Markdown (ni gras, ni titres).";

/** Spec §9: the prompt, in French; grounding rules of issue 7 and 40 added. `shop`: the current identity (issue 29). */
export function systemPrompt(shop: ShopIdentity): string {
  const facts = shopFacts(shop);
  return [
    `Tu es l'assistant virtuel de ${facts.nom}, atelier de réparation, de vente et d'assistance informatique en France.`,
    "Tu réponds en français, avec des phrases courtes et des étapes numérotées quand il y a une manipulation à faire.",
    "Tu aides pour Windows, macOS et Linux : dépannage matériel et logiciel, sécurité (virus, mots de passe, sauvegardes), réseaux (Wi-Fi, box, imprimantes) et maintenance préventive.",
    // Issue 40: « Mon ordinateur est très lent, que faire ? » got the repairs' list instead of steps to try.
    FIRST_STEPS_RULE,
    `Tu proposes l'intervention d'un technicien (${TECHNICIAN_HOURLY_RATE_EUROS} € de l'heure, à distance ou à l'atelier) seulement quand c'est nécessaire : matériel à ouvrir, données en danger, ou problème que le client ne peut pas résoudre seul.`,
    "Pour un prix de réparation (smartphone, tablette, console), appelle toujours l'outil lookup_repair_price et donne le prix « à partir de » qu'il renvoie avec le lien de la page. Si le client parle de plusieurs appareils, appelle l'outil une fois par appareil ; s'il répond « several », donne le résultat de chacun.",
    // Issue 18 §4: the tool's `booking` is the booking form pre-filled for that model (and repair).
    "Quand l'outil renvoie « booking », termine par le lien de rendez-vous, avec ce chemin recopié tel quel : « [Prendre rendez-vous : Écran, Galaxy S21](/rendez-vous?modele=galaxy-s21&reparation=ecran) ».",
    LINKS_RULE,
    "Si l'outil répond « ambiguous », donne les modèles candidats avec leurs prix et demande lequel est le bon ; s'il répond « not-found », dis que le modèle n'est pas dans le catalogue et propose un [devis gratuit](/contact).",
    "N'écris JAMAIS un montant en euros qu'un outil ne t'a pas donné dans cette conversation : sans prix trouvé, invite à demander un devis gratuit.",
    "Pour les horaires, l'adresse, le téléphone, le tarif horaire, les garanties, la réparation express, le diagnostic, les devis, les boîtes mail ou l'assistance à distance, appelle l'outil shop_information et n'invente rien.",
  ].join("\n");
}

/** The tools offered to the model, with French descriptions it reads. */
export const TOOLS: readonly ToolDefinition[] = [
  {
    name: "lookup_repair_price",
    description:
      "Cherche dans le catalogue de l'atelier le prix d'une réparation (à partir de, en euros), le lien de la page et, pour un modèle trouvé, le lien du formulaire de rendez-vous pré-rempli (booking), pour un modèle de smartphone, de tablette ou de console.",
    parameters: {
      type: "object",
      properties: { question: { type: "string", description: "Marque, modèle et réparation, ex. « port HDMI PS5 »" } },
      required: ["question"],
    },
  },
  {
    name: "shop_information",
    description:
      "Horaires, adresse, téléphone, e-mail de l'atelier, tarif horaire du technicien, garanties (réparation et vente), réparation express, diagnostic, délai de réponse aux devis, boîtes mail et comment démarrer une assistance à distance.",
    parameters: { type: "object", properties: {} },
  },
];

/** The `question` argument of a price lookup; arguments that are not JSON are read as the question itself. */
function questionOf(argumentsJson: string): string {
  try {
    return String((JSON.parse(argumentsJson || "{}") as { question?: unknown }).question ?? "");
  } catch {
    return argumentsJson;
  }
}

/**
 * Runs one tool call; returns its JSON answer for the model. Prices found
 * are added to `grounded` (the amounts the price guard lets through, €); prices come from `brands` (issue 29:
 * the server's current catalogue), facts from `shop` (the current identity).
 * Never throws: bad arguments are read as the question itself, an unknown
 * tool gets a French error object.
 */
export function runTool(
  call: ToolCall,
  grounded: Set<number>,
  brands: readonly Brand[],
  shop: ShopIdentity = defaultShop,
): string {
  if (call.name === "shop_information") return JSON.stringify(shopFacts(shop));
  if (call.name === "lookup_repair_price") {
    const results = lookupRepairPrices(questionOf(call.arguments), brands);
    for (const euros of results.flatMap(quotedAmounts)) grounded.add(euros);
    // A question naming several devices: one result each.
    if (results.length > 1) return JSON.stringify({ kind: "several", results });
    const result = results[0]!;
    return JSON.stringify(
      result.kind === "not-found"
        ? { ...result, conseil: "Modèle absent du catalogue : proposer un [devis gratuit](/contact)." }
        : result,
    );
  }
  return JSON.stringify({ erreur: `outil inconnu : ${call.name}` });
}
