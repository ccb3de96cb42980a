/**
 * First steps before a technician (issue 40, « Customers of remote help » §2):
 * « Mon ordinateur est très lent, que faire ? » deserves what a customer can
 * safely try alone — restart, close programs, free disk space, updates,
 * startup programs, an antivirus scan — and then the offer of a technician
 * (the remote session, or the shop with a free diagnosis), not a list of
 * repairs. The offline assistant (`offline.ts`) answers slowness with these;
 * the AI provider is told the same rule by the prompt (`prompt.ts`).
 *
 * Pure: French text in, French text out.
 */
import type { Brand } from "#app/catalogue/shapes.ts";
import type { PriceLookup } from "./knowledge.ts";

/** What was slow: a computer (steps for Windows and macOS), or a phone or tablet. */
export type SlowDevice = "computer" | "mobile";

/** Slowness, on the folded text (no accents, lower case): "lent", "lenteur", "ralenti", "ça rame"… */
const SLOW =
  /\b(lent|lente|lents|lentes|lentement|lenteur|lenteurs|ralenti|ralentie|ralentis|ralenties|ralentit|ralentissement|ralentissements|rame|rament|ramer)\b/;
/** A price asked: the catalogue's answer is wanted, not steps. */
const PRICE_ASKED = /\b(prix|tarif|tarifs|combien|cout|coute|coutent|devis)\b/;
/** Charging slowly is a battery or connector matter, not one of speed. */
const CHARGING = /\b(charge|charger|recharge|recharger|chargement|chargeur)\b/;
const MOBILE = /\b(telephone|smartphone|mobile|tablette|iphone|ipad|android|galaxy)\b/;
/** Words that put a computer's software in the question when no computer is named ("Windows rame"). */
const COMPUTER_SOFTWARE = /\b(windows|macos|linux|navigateur|chrome|firefox|edge|demarrage|logiciel|logiciels)\b/;

/**
 * Whether `folded` (the folded message) asks what to do about a slow device,
 * and which: null when it is not about slowness, names a repair or asks a
 * price, names a console or several devices, or names no device we can help
 * with. `aboutComputer`: the message names a computer ("PC", "ordinateur",
 * "Mac"…); `lookups`: the catalogue's reading of it; `brands`: that catalogue.
 */
export function slowDevice(
  folded: string,
  aboutComputer: boolean,
  lookups: readonly PriceLookup[],
  brands: readonly Brand[],
): SlowDevice | null {
  if (!SLOW.test(folded) || PRICE_ASKED.test(folded) || CHARGING.test(folded) || lookups.length !== 1) return null;
  const lookup = lookups[0]!;
  if (lookup.kind === "found") {
    if (lookup.repairNamed) return null;
    const page = lookup.model.link.split("#")[0];
    return brands.find((brand) => brand.path === page)?.family === "console" ? null : "mobile";
  }
  if (lookup.kind === "ambiguous") return lookup.repairNamed || !MOBILE.test(folded) ? null : "mobile";
  if (aboutComputer || COMPUTER_SOFTWARE.test(folded)) return "computer";
  return MOBILE.test(folded) ? "mobile" : null;
}

const COMPUTER_STEPS = [
  "Redémarrez l'ordinateur (un vrai redémarrage, pas seulement la mise en veille) : la mémoire est vidée et les mises à jour en attente se terminent.",
  "Fermez les programmes et les onglets du navigateur dont vous ne vous servez pas. Le Gestionnaire des tâches (Ctrl + Maj + Échap sous Windows) ou le Moniteur d'activité (Mac) montre ce qui occupe le processeur et la mémoire.",
  "Libérez de l'espace disque : videz la corbeille et le dossier Téléchargements, désinstallez les programmes que vous n'utilisez plus. Gardez au moins 15 % du disque libre.",
  "Installez les mises à jour du système (Windows Update, ou Réglages Système > Général > Mise à jour de logiciels sur Mac), puis redémarrez.",
  "Désactivez les programmes lancés au démarrage dont vous n'avez pas besoin (Gestionnaire des tâches, onglet « Démarrage » sous Windows ; Réglages Système > Général > Ouverture sur Mac).",
  "Lancez une analyse complète avec votre antivirus (Sécurité Windows sous Windows).",
];

const MOBILE_STEPS = [
  "Redémarrez l'appareil : éteignez-le complètement, puis rallumez-le.",
  "Fermez les applications ouvertes en arrière-plan.",
  "Libérez de l'espace de stockage : supprimez les applications inutilisées, les vidéos et les photos déjà sauvegardées. Gardez au moins 10 % de l'espace libre.",
  "Installez les mises à jour du système et des applications (dans les Réglages).",
  "Regardez l'état de la batterie (Réglages > Batterie) : une batterie usée peut ralentir l'appareil.",
];

/**
 * The answer for a slow `device`: the steps, numbered, then a technician —
 * « Parler à un technicien » under the conversation, or the shop through
 * `booking` (the booking form's path pre-filled for the model found, named
 * later by `nameBarePaths`; without one, the form for a free diagnosis).
 */
export function firstStepsAnswer(device: SlowDevice, booking?: string): string {
  const computer = device === "computer";
  const steps = computer ? COMPUTER_STEPS : MOBILE_STEPS;
  return [
    "Voici d'abord ce que vous pouvez essayer vous-même, dans cet ordre :",
    ...steps.map((step, index) => `${index + 1}. ${step}`),
    computer
      ? "Si l'ordinateur reste lent, ou s'il chauffe beaucoup, fait du bruit ou s'éteint seul, un technicien peut s'en occuper : à distance, cliquez sur « Parler à un technicien » sous cette conversation ; à l'atelier, le diagnostic est gratuit."
      : "Si l'appareil reste lent, un technicien peut vous aider : cliquez sur « Parler à un technicien » sous cette conversation, ou apportez-le à l'atelier, où le diagnostic est gratuit.",
    booking ?? "[Prendre rendez-vous pour un diagnostic gratuit](/rendez-vous)",
  ].join("\n");
}
