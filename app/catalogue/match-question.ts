/**
 * A whole question → the model it is about (issue 17 §1), for the assistant:
 * `matchQuestion(matcher, "Combien pour l'écran de ma Redmi Pad SE ?")`.
 *
 * 0. Symptoms become the words of the repair they mean ("ne lit plus les
 *    disques" → "lecteur", `./symptoms.ts`, issue 18).
 * 1. Every model whose whole name the question carries (`align`), with no
 *    sign of another model around it (`contradicted`), is a fit. Its score:
 *    the words it covers, plus one when the question names one of its repairs.
 * 2. The best fit wins; on a tie, the one naming a repair, then the one with
 *    the fewest name words left unsaid (the exact name: "Switch" over "Switch
 *    OLED" is already decided in 1, "Redmi Pad" over "Redmi Pad 5G" here).
 *    Still equal: a year in the question picks among them ("iPad Air 2022"),
 *    else the question is ambiguous (iPhone SE 2020 or 2022?).
 * 3. No fit: a series named whole ("Mi Pad") or models missing one word
 *    ("Xbox Series", when they are all the models those words name) are the
 *    candidates, at most `MAX_CANDIDATES`, a year narrowing them; else
 *    nothing, with the brands recognised ("iPhone 7": Apple).
 *
 * The repairs named are picked best first, then again on the words left
 * ("vitre arrière et écran": both).
 *
 * The winner comes with its variants: the same brand's models whose names
 * extend its own ("PS4" → "PS4 Slim", "PS4 Pro"), so a customer unsure of the
 * exact model sees their prices too.
 */
import {
  align,
  candidatesFor,
  contradicted,
  everydayName,
  repairMatches,
  termsOf,
  type Matcher,
  type PreparedModel,
  type Term,
} from "./model-matcher.ts";
import { EXACT, repairWordMatch } from "./search-text.ts";
import { EVERYDAY_NAME_WORDS, FAMILY_WORDS, isYear, MODEL_SUFFIXES } from "./match-text.ts";
import type { RepairId } from "./schema.ts";
import { rephraseSymptoms } from "./symptoms.ts";

/** Most candidates listed when the question is ambiguous. */
export const MAX_CANDIDATES = 8;
/** Most variants listed beside a found model. */
export const MAX_VARIANTS = 4;

/** Model positions refer to `matcher.models`; repairs are those the question names, best first. */
export type QuestionMatch =
  | {
      readonly kind: "model";
      readonly model: number;
      readonly repairs: readonly RepairId[];
      readonly variants: readonly number[];
    }
  | { readonly kind: "ambiguous"; readonly models: readonly { model: number; repairs: readonly RepairId[] }[] }
  | { readonly kind: "none"; readonly brands: readonly number[] };

/** A word that can name a model on its own: letters, 3 or more, no suffix, no everyday word. */
const isStrong = (text: string) =>
  /^[a-z]{3,}$/.test(text) && !MODEL_SUFFIXES.has(text) && !EVERYDAY_NAME_WORDS.has(text);

const DETERMINERS = new Set("ma mon ta ton sa son votre notre une un la le les des sur pour de du".split(" "));

type Fit = { model: number; score: number; named: boolean; unmatched: number; repairs: RepairId[] };

/**
 * The repairs of `ids` the free terms name, catalogue order: those naming
 * best (ties kept), then again on the terms they left, while a whole word
 * names one ("vitre arrière et écran": both; "caméra arrière": not the front
 * one too).
 */
function namedRepairs(
  matcher: Matcher,
  ids: readonly RepairId[],
  terms: readonly Term[],
  taken: ReadonlySet<number>,
): RepairId[] {
  const chosen = new Set<RepairId>();
  const used = new Set(taken);
  for (;;) {
    const matches = repairMatches(
      matcher,
      ids.filter((id) => !chosen.has(id)),
      terms,
      used,
    );
    const score = (id: RepairId) => matches.get(id)!.reduce((sum, match) => sum + match.score, 0);
    const best = Math.max(0, ...[...matches.keys()].map(score));
    if (best === 0 || (chosen.size > 0 && best < EXACT)) break;
    for (const [id, list] of matches) {
      if (score(id) !== best) continue;
      chosen.add(id);
      for (const match of list) used.add(match.position);
    }
  }
  return ids.filter((id) => chosen.has(id));
}

const sameRank = (a: Fit, b: Fit) => a.score === b.score && a.named === b.named && a.unmatched === b.unmatched;

/** See the module's documentation. Pure; about 0.1 ms for the whole catalogue. */
export function matchQuestion(matcher: Matcher, question: string): QuestionMatch {
  const terms = termsOf(rephraseSymptoms(question));
  if (terms.length === 0) return { kind: "none", brands: [] };
  const repairLists = [...matcher.repairWords.values()];
  const isRepairWord = (term: Term) => repairLists.some((list) => repairWordMatch(term.text, list) === EXACT);

  const fits: Fit[] = [];
  /** Models missing one required word, with the number of terms their name took. */
  const near: { model: number; took: number }[] = [];
  /** The terms taken by every model whose name the question carries in part. */
  const partial: number[] = [];
  for (const id of candidatesFor(matcher, terms, false)) {
    const model = matcher.models[id]!;
    const alignment = align(matcher, model, terms, false);
    if (alignment.byName.size === 0 || contradicted(alignment, terms, isRepairWord, { matcher, model })) continue;
    if (!alignment.complete) {
      partial.push(alignment.byName.size);
      // One word short, and that word a letter or suffix ("Xbox Series" → X or S), never a number ("Redmi" → 9…13).
      const strong = [...alignment.byName].some((p) => isStrong(terms[p]!.text));
      if (alignment.missingRequired === 1 && /^[a-z]+$/.test(alignment.missingWords[0]!) && strong) {
        near.push({ model: id, took: alignment.byName.size });
      }
      continue;
    }
    if (everydayName(model) && alignment.extra === 0) {
      // "ma Encore", "écran Encore", not "encore un devis".
      const before = terms[Math.min(...alignment.byName) - 1];
      if (!before || !(DETERMINERS.has(before.text) || isRepairWord(before))) continue;
    }
    const repairs = namedRepairs(matcher, model.repairs, terms, alignment.consumed);
    const score = Math.round((alignment.score + (repairs.length > 0 ? 1 : 0)) * 100) / 100;
    fits.push({ model: id, score, named: repairs.length > 0, unmatched: alignment.unmatchedName, repairs });
  }

  if (fits.length > 0) {
    fits.sort(
      (a, b) =>
        b.score - a.score || Number(b.named) - Number(a.named) || a.unmatched - b.unmatched || a.model - b.model,
    );
    const best = fits[0]!;
    const tied = fits.filter((fit) => sameRank(fit, best));
    const dated = ofTheYear(matcher, tied, terms);
    const chosen = dated.length === 1 ? dated[0] : undefined;
    if (chosen)
      return {
        kind: "model",
        model: chosen.model,
        repairs: chosen.repairs,
        variants: variantsOf(matcher, chosen.model),
      };
    return {
      kind: "ambiguous",
      models: dated.slice(0, MAX_CANDIDATES).map(({ model, repairs }) => ({ model, repairs })),
    };
  }

  const took = Math.max(0, ...near.map((entry) => entry.took));
  const nearest = near.filter((entry) => entry.took === took).map((entry) => entry.model);
  // Only when they are all the models those words name: "iPhone" alone is no question between X, XR, XS and SE.
  const allOfThem = partial.filter((count) => count === took).length === nearest.length;
  const candidates =
    seriesNamed(matcher, terms, isRepairWord) ??
    (nearest.length > 1 && nearest.length <= MAX_CANDIDATES && allOfThem ? nearest : undefined);
  const dated =
    candidates &&
    ofTheYear(
      matcher,
      candidates.map((model) => ({ model })),
      terms,
    ).map((c) => c.model);
  if (dated?.length === 1) {
    const repairs = namedRepairs(matcher, matcher.models[dated[0]!]!.repairs, terms, new Set());
    return { kind: "model", model: dated[0]!, repairs, variants: variantsOf(matcher, dated[0]!) };
  }
  if (dated) {
    return {
      kind: "ambiguous",
      models: dated.slice(0, MAX_CANDIDATES).map((model) => ({
        model,
        repairs: namedRepairs(matcher, matcher.models[model]!.repairs, terms, new Set()),
      })),
    };
  }
  return { kind: "none", brands: brandsNamed(matcher, terms) };
}

/**
 * The models of `candidates` whose year the question gives ("iPad Air 2022"
 * → "iPad Air 5 (2022)"); all of them when it gives no year, or one no
 * candidate has.
 */
function ofTheYear<T extends { model: number }>(
  matcher: Matcher,
  candidates: readonly T[],
  terms: readonly Term[],
): T[] {
  const years = new Set(terms.filter((term) => isYear(term.text)).map((term) => term.text));
  const dated = candidates.filter(({ model }) =>
    matcher.models[model]!.name.some((word) => word.qualifier && years.has(word.text)),
  );
  return dated.length > 0 ? dated : [...candidates];
}

/** The same brand's models whose names extend the name of `model` ("PS4" → "PS4 Slim", "PS4 Pro"). */
export function variantsOf(matcher: Matcher, model: number): number[] {
  const base = matcher.models[model]!;
  const baseWords = base.name.filter((word) => !word.qualifier).map((word) => word.text);
  const variants: number[] = [];
  matcher.models.forEach((other, id) => {
    if (id === model || other.brand !== base.brand || variants.length >= MAX_VARIANTS) return;
    const otherWords = other.name.filter((word) => !word.qualifier).map((word) => word.text);
    if (otherWords.length <= baseWords.length) return;
    const left = [...otherWords];
    const contains = baseWords.every((word) => {
      const i = left.indexOf(word);
      if (i === -1) return false;
      left.splice(i, 1);
      return true;
    });
    if (contains) variants.push(id);
  });
  return variants;
}

/** The models of the series whose whole name the question carries ("Mi Pad"), the most specific series first. */
function seriesNamed(
  matcher: Matcher,
  terms: readonly Term[],
  isRepairWord: (term: Term) => boolean,
): number[] | undefined {
  let best: { key: string; size: number } | undefined;
  const tried = new Set<string>();
  for (const model of matcher.models) {
    const key = `${model.brand}\u0000${model.series}`;
    const words = model.seriesWords;
    if (tried.has(key) || words.length === 0 || (best && words.length <= best.size)) continue;
    tried.add(key);
    // The series' name lined up like a model's, so "iPhone 16e" is not the series "iPhone 16".
    const asModel: PreparedModel = {
      ...model,
      name: words.map((text) => ({ text, required: true, qualifier: false })),
      order: words.map((_, i) => i),
    };
    const alignment = align(matcher, asModel, terms, false);
    const strong = [...alignment.byName].some((p) => isStrong(terms[p]!.text));
    if (alignment.complete && strong && !contradicted(alignment, terms, isRepairWord, { matcher, model })) {
      best = { key, size: words.length };
    }
  }
  if (!best) return undefined;
  const members: number[] = [];
  matcher.models.forEach((model, id) => {
    if (`${model.brand}\u0000${model.series}` === best.key) members.push(id);
  });
  return members.length > 1 ? members : undefined;
}

const FAMILY = new Set(Object.values(FAMILY_WORDS).flat());

/** One model per brand whose distinctive words the question uses ("iphone" → an Apple model), at most three. */
function brandsNamed(matcher: Matcher, terms: readonly Term[]): number[] {
  const seen = new Map<string, number>();
  const said = new Set(terms.filter((term) => term.text.length >= 3 && !term.weak).map((term) => term.text));
  matcher.models.forEach((model, id) => {
    if (seen.has(model.brand)) return;
    const words = [...model.name.map((word) => word.text), ...model.extra];
    if (
      words.some((word) => said.has(word) && !MODEL_SUFFIXES.has(word) && !FAMILY.has(word) && /^[a-z]{3,}$/.test(word))
    ) {
      seen.set(model.brand, id);
    }
  });
  return seen.size <= 3 ? [...seen.values()] : [];
}
