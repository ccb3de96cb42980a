/**
 * What the assistant may state as fact (issue 7 "Grounding"), from the same
 * sources as the pages: repair prices from the catalogue data
 * (`app/catalogue`), and the shop's facts from `app/config/shop.ts`. Both
 * the offline assistant and the model's tools answer from here, so a price
 * can only ever be one the catalogue holds.
 *
 * Units: prices are whole euros (€), minimums ("à partir de").
 */
import { brands, formatPrice, getModel } from "#app/catalogue/index.ts";
import { buildModelIndex, searchModels, tokenize, type ModelHit, type ModelIndex } from "#app/catalogue/search.ts";
import { formatAddress, formatOpeningHours, shop } from "#app/config/shop.ts";

/** One priced repair as the assistant quotes it. */
export type QuotedRepair = {
  repair: string;
  euros: number;
  /** "à partir de 89 €" */
  price: string;
  /** True while the shop has not confirmed the figure (the pages say so too). */
  estimate: boolean;
};

export type PriceLookup =
  | {
      found: true;
      brand: string;
      model: string;
      /** The model's card on its brand page, e.g. "/services/playstation-repair#ps5". */
      link: string;
      /** The repairs the question names, or every repair of the model when it names none. */
      repairs: QuotedRepair[];
      /** Whether the question named a repair type the model has. */
      repairNamed: boolean;
    }
  | { found: false };

/** French words of a question that name neither a model nor a repair ("plus" is kept: "S24+" is "s24 plus"). */
const STOP_WORDS = new Set(
  (
    "a ai au aux avec bonjour c ca ce cela ces cest combien comment cout coute couter coutera d dans de des devis du elle en est et " +
    "faire faut il j je l la le les leur lui m ma mais me merci mes mon ne nous on ou par pas peut peux pour pourriez pouvez prix " +
    "qu quand que quel quelle quelles quels qui reparation reparer remplacement remplacer changer changement s sa se ses si son " +
    "sur svp t ta te tes ton tu un une vos votre vous y"
  ).split(" "),
);

let index: ModelIndex | undefined;
/** The catalogue's search index, built once on first use (about 20 ms). */
function modelIndex(): ModelIndex {
  index ??= buildModelIndex(brands);
  return index;
}

/** Letter and digit runs of a text's folded tokens, so "PS5", "ps 5" and "ps5" all give {ps, 5}. */
function tokensOf(text: string): Set<string> {
  return new Set(tokenize(text).flatMap((token) => token.match(/[a-z]+|[0-9]+/g) ?? []));
}

/**
 * How well a hit's model name is covered by the question: the share of its
 * name's tokens present in it. A question must name the model, not merely
 * resemble it ("vos horaires" is no tablet).
 */
function coverage(hit: ModelHit, question: Set<string>): number {
  const name = [...tokensOf(hit.name)];
  if (name.length === 0) return 0;
  return name.filter((token) => question.has(token)).length / name.length;
}

/**
 * The catalogue's answer to a free-text question ("Combien coûte le port HDMI
 * d'une PS5 ?"): the model it names fully (the shortest such name when
 * several do: "PS5" rather than "PS5 Digital"), with the named repairs.
 */
export function lookupRepairPrice(question: string): PriceLookup {
  // The finder requires every word to match something: the question's small words must go first.
  const keywords = tokenize(question).filter((token) => !STOP_WORDS.has(token));
  if (keywords.length === 0) return { found: false };
  const result = searchModels(modelIndex(), keywords.join(" "), { limit: 12 });
  const words = tokensOf(question);
  const named = result.hits
    .map((hit) => ({ hit, score: coverage(hit, words), length: tokensOf(hit.name).size }))
    .filter((candidate) => candidate.score === 1)
    .sort((a, b) => a.length - b.length);
  const best = named[0]?.hit;
  if (!best) return { found: false };
  const matched = best.repairs.filter((repair) => repair.matched);
  const chosen = matched.length > 0 ? matched : best.repairs;
  const estimates = new Map(getModel(best.slug)?.model.repairs.map((repair) => [repair.id, repair.estimate]) ?? []);
  return {
    found: true,
    brand: best.brand,
    model: best.name,
    link: best.href,
    repairNamed: matched.length > 0,
    repairs: chosen.map((repair) => ({
      repair: repair.label,
      euros: repair.euros,
      price: formatPrice(repair.euros),
      estimate: estimates.get(repair.id) ?? false,
    })),
  };
}

/** The shop's facts the assistant may give (spec §9 opening hours; placeholders until the shop fills `shop.ts`). */
export function shopFacts() {
  return {
    name: shop.name,
    phone: shop.phone.display,
    email: shop.email,
    address: formatAddress(),
    openingHours: formatOpeningHours(),
    technicianHourlyRateEuros: TECHNICIAN_HOURLY_RATE_EUROS,
    remoteSupport:
      "Connectez-vous sur /soft-assist, cliquez sur « Démarrer une session d'assistance », puis communiquez le code affiché au technicien par téléphone.",
  };
}

/** Spec §9: the technician's hourly rate cited by the assistant, €. */
export const TECHNICIAN_HOURLY_RATE_EUROS = 80;
