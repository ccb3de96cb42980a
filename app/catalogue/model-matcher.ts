/**
 * The model matcher (issue 17 §1), shared by the model finder (`./search.ts`,
 * in the browser, as the visitor types) and the assistant
 * (`server/assistant/knowledge.ts`, on a whole question). One alignment of a
 * text's terms with each model's words decides both:
 *
 * - a model's words are its name's (qualifiers in brackets, "pouces" and
 *   "5G" optional), its brand's (optional; the brand word inside the name —
 *   "Huawei P30", "Galaxy S24" — is optional when the rest tells the model
 *   apart), its family's ("tablette") and, for the finder, its series';
 * - a term matches a word exactly, by an alias ("playstation" = "ps"), with
 *   one typo (`isTypo`), glued ("redmipad") or split ("i phone"); a French
 *   small word or a suffix ("se", "plus", "pro") only next to the model's
 *   other words;
 * - `matchQuestion`: the model whose whole name the question carries and
 *   that covers most of it wins ("Redmi Pad SE" over "Redmi Pad"); a number,
 *   suffix or letter glued or next to a name ("Switch 2", "Xbox One X",
 *   "iPhone 16e") rules that name out; equal fits are asked back;
 * - `matchTyping`: every typed word must match the model (the last one as a
 *   prefix), words no model has are dropped, and the models whose names the
 *   query covers best come first ("Switch" before "Switch Lite").
 *
 * Pure and light (no data, no dependency): the browser runs it over the
 * payload of `./search-index.ts`. Units: none (scores are unitless).
 */
import type { Family, RepairId } from "./schema.ts";
import {
  BRAND_ALIASES,
  FAMILY_WORDS,
  isYear,
  MODEL_SUFFIXES,
  NEUTRAL_WORDS,
  QUESTION_WORD_ALIASES,
  termsOf,
  WORD_ALIASES,
  words,
  type Term,
} from "./match-text.ts";
import { typosOf } from "./match-checks.ts";

/** What the matcher needs of a catalogue model. */
export type MatchableModel = {
  readonly name: string;
  /** Brand card label ("Apple", "PlayStation"). */
  readonly brand: string;
  /** Series as the brand page names it ("Série Redmi Pad"). */
  readonly series: string;
  readonly family: Family;
  /** The model's repairs, display order. */
  readonly repairs: readonly RepairId[];
};

type Word = { readonly text: string; readonly required: boolean; readonly qualifier: boolean };

/** A model as the matcher compares it, built once by `buildMatcher`. */
export type PreparedModel = {
  readonly brand: string;
  /** The brand's words and aliases ("playstation", "sony"). */
  readonly brandWords: readonly string[];
  readonly series: string;
  /** The name's words in order (qualifiers included). */
  readonly name: readonly Word[];
  /** Positions in `name`, required words first (the order `align` fills them). */
  readonly order: readonly number[];
  /** Brand and family words: they may stand beside the name, never required. */
  readonly extra: readonly string[];
  /** Series words (finder only). */
  readonly seriesWords: readonly string[];
  readonly repairs: readonly RepairId[];
};

/** The prepared catalogue: models by position, and the words of each repair label (with aliases). */
export type Matcher = {
  readonly models: readonly PreparedModel[];
  readonly repairWords: ReadonlyMap<RepairId, readonly string[]>;
  /** Every word of the models (name, brand, family, series, aliases) → the models having it. */
  readonly vocabulary: ReadonlyMap<string, readonly number[]>;
  /** Every brand word of the catalogue: naming one is naming that maker. */
  readonly brandWords: ReadonlySet<string>;
  /** The name words of each brand's models (letters only, 3 or more), by brand label. */
  readonly nameWords: ReadonlyMap<string, ReadonlySet<string>>;
};

/** Line names that, like a brand, may be left out when the rest of the name tells the model apart ("Fold5" of "Galaxy Z Fold5"). */
const LINE_WORDS = new Set(["galaxy", "xperia", "z"]);
/** Families whose brand word inside a name ("Huawei P30") customers leave out. */
const BRAND_OPTIONAL_FAMILIES = new Set<Family>(["smartphone"]);
const OPTIONAL_NAME_WORDS = new Set(["pouces"]);

/** Whether the required words left tell a model apart: a word of letters that is no suffix, or a letter-led code ("p30"). */
function distinctive(rest: readonly { text: string; letterLed: boolean }[]): boolean {
  return rest.some((word) => word.letterLed || (/^[a-z]{2,}$/.test(word.text) && !MODEL_SUFFIXES.has(word.text)));
}

/** Prepares one model (see `PreparedModel`). */
export function prepareModel(model: MatchableModel): PreparedModel {
  const brandWords = new Set(words(model.brand).flatMap((word) => [word, ...(BRAND_ALIASES[word] ?? [])]));
  const main = model.name.replace(/\([^)]*\)/g, " ");
  const qualifiers = [...model.name.matchAll(/\(([^)]*)\)/g)].flatMap((match) => words(match[1]!));
  type Raw = { text: string; letterLed: boolean; optional: boolean; brandLike: boolean };
  const raw: Raw[] = words(main).flatMap((token) => {
    const parts = token.match(/[a-z]+|[0-9]+/g) ?? [];
    const network = /^[45]g$/.test(token);
    return parts.map((part, i) => ({
      text: part,
      letterLed: i === 0 && parts.length > 1 && /^[a-z]/.test(part),
      optional: network || OPTIONAL_NAME_WORDS.has(part),
      brandLike: parts.length === 1 && (brandWords.has(part) || LINE_WORDS.has(part)),
    }));
  });
  const core = raw.filter((word) => !word.optional && !word.brandLike);
  const brandOptional =
    distinctive(core) &&
    (BRAND_OPTIONAL_FAMILIES.has(model.family) || raw.some((word) => word.brandLike && LINE_WORDS.has(word.text)));
  const name: Word[] = [
    ...raw.map((word) => ({
      text: word.text,
      required: !word.optional && !(word.brandLike && brandOptional),
      qualifier: word.optional,
    })),
    ...qualifiers.flatMap((part) =>
      (part.match(/[a-z]+|[0-9]+/g) ?? []).map((text) => ({ text, required: false, qualifier: true })),
    ),
  ];
  const nameTexts = new Set(name.map((word) => word.text));
  const order = name.map((_, i) => i).sort((a, b) => Number(name[b]!.required) - Number(name[a]!.required));
  return {
    order,
    brand: model.brand,
    brandWords: [...brandWords],
    series: model.series,
    name,
    extra: [...[...brandWords].filter((word) => !nameTexts.has(word)), ...FAMILY_WORDS[model.family]],
    seriesWords: words(model.series).filter((word) => word !== "serie" && word !== "et"),
    repairs: model.repairs,
  };
}

/** The matcher over `models` (catalogue order) and the repair labels by id. */
export function buildMatcher(
  models: readonly MatchableModel[],
  repairLabels: ReadonlyMap<RepairId, string>,
  repairAliases: Partial<Record<RepairId, readonly string[]>> = {},
): Matcher {
  const repairWords = new Map<RepairId, string[]>();
  for (const [id, label] of repairLabels) {
    repairWords.set(id, [
      ...words(label).filter((word) => !["de", "du", "la", "le", "et"].includes(word)),
      ...(repairAliases[id] ?? []),
    ]);
  }
  const prepared = models.map(prepareModel);
  const vocabulary = new Map<string, number[]>();
  prepared.forEach((model, id) => {
    const all = [...model.name.map((word) => word.text), ...model.extra, ...model.seriesWords];
    for (const word of new Set([...all, ...all.flatMap(aliasesOf)])) {
      const list = vocabulary.get(word);
      if (list) list.push(id);
      else vocabulary.set(word, [id]);
    }
  });
  const nameWords = new Map<string, Set<string>>();
  for (const model of prepared) {
    const set = nameWords.get(model.brand) ?? new Set<string>();
    for (const word of model.name) if (/^[a-z]{3,}$/.test(word.text)) set.add(word.text);
    nameWords.set(model.brand, set);
  }
  return {
    models: prepared,
    repairWords,
    vocabulary,
    brandWords: new Set(prepared.flatMap((model) => model.brandWords)),
    nameWords,
  };
}

/** How one model lines up with a text's terms. */
export type Alignment = {
  /** Term positions the model's name, brand, family or series words took. */
  readonly consumed: ReadonlySet<number>;
  /** Term positions its name words took. */
  readonly byName: ReadonlySet<number>;
  /** Every required name word matched, standing together. */
  readonly complete: boolean;
  /** Required name words no term matched. */
  readonly missingRequired: number;
  /** Those words. */
  readonly missingWords: readonly string[];
  /** Of which brand and family words. */
  readonly extra: number;
  /** Sum of match qualities (1 exact, 0.9 glued or split, 0.8 typo, 0.6 prefix). */
  readonly score: number;
  /** Name words (qualifiers included) no term matched. */
  readonly unmatchedName: number;
  /** Qualifier words matched ("2022" of "iPad 10 (2022)"). */
  readonly hasUnmatchedYear: boolean;
};

/** Whether a typed text is a typo of a word (`isTypo`, looked up in the matcher's cache). */
type TypoTest = (text: string, word: string) => boolean;

type Take = { positions: number[]; words: number; quality: number };

const aliasesOf = (word: string) => WORD_ALIASES[word] ?? [];

/** The best way for a term (or two) to match name word `index`, or undefined. */
function bestTake(
  typo: TypoTest,
  name: readonly Word[],
  index: number,
  terms: readonly Term[],
  used: ReadonlySet<number>,
  typing: boolean,
): Take | undefined {
  const word = name[index]!.text;
  let best: Take | undefined;
  // Of two equal terms, the one beside the name's other words ("ne marche plus avec mon iPhone 8 Plus").
  const besideName = (take: Take) => used.has(take.positions[0]! - 1) || used.has(take.positions.at(-1)! + 1);
  const offer = (take: Take) => {
    if (
      !best ||
      take.quality > best.quality ||
      (take.quality === best.quality && besideName(take) && !besideName(best))
    )
      best = take;
  };
  for (const term of terms) {
    if (used.has(term.position) || term.filler) continue;
    if (term.text === word) offer({ positions: [term.position], words: 1, quality: 1 });
    else if (aliasesOf(word).includes(term.text) || (!typing && QUESTION_WORD_ALIASES[word]?.includes(term.text)))
      offer({ positions: [term.position], words: 1, quality: 0.95 });
    // Glued: "redmipad" = "redmi" + "pad" (up to three words).
    let glued = word;
    for (let next = index + 1; next < Math.min(name.length, index + 3); next++) {
      glued += name[next]!.text;
      if (term.text === glued) offer({ positions: [term.position], words: next - index + 1, quality: 0.9 });
    }
    // Split: "i phone" = "iphone".
    const after = terms[term.position + 1];
    if (after && !used.has(after.position) && term.text + after.text === word) {
      offer({ positions: [term.position, after.position], words: 1, quality: 0.9 });
    }
    if (typo(term.text, word)) offer({ positions: [term.position], words: 1, quality: 0.8 });
    if (typing && term.partial && term.text.length < word.length && word.startsWith(term.text)) {
      offer({ positions: [term.position], words: 1, quality: 0.6 });
    }
  }
  return best;
}

/** A term matching one of `candidates` (exactly, with a typo, or as a prefix while typing), best first. */
function takeExtra(
  typo: TypoTest,
  candidates: readonly string[],
  terms: readonly Term[],
  used: Set<number>,
  typing: boolean,
): number {
  let score = 0;
  for (const term of terms) {
    if (used.has(term.position) || term.weak) continue;
    let quality = 0;
    for (const word of candidates) {
      if (term.text === word) quality = 1;
      else if (quality < 0.8 && typo(term.text, word)) quality = 0.8;
      else if (quality < 0.6 && typing && term.partial && word.startsWith(term.text)) quality = 0.6;
    }
    if (quality > 0) {
      used.add(term.position);
      score += quality;
    }
  }
  return score;
}

/**
 * Lines model `model` up with `terms`: required name words first, then the
 * others, each taking the best free term; then brand and family words (and
 * series words while `typing`). A small word or a suffix counts only next to
 * another word of the name (outside `typing`).
 */
export function align(matcher: Matcher, model: PreparedModel, terms: readonly Term[], typing: boolean): Alignment {
  const typo: TypoTest = (text, word) => typosOf(matcher, text).has(word);
  const used = new Set<number>();
  const byName = new Set<number>();
  const matched = new Array<number>(model.name.length).fill(0);
  const takes = new Map<number, Take>();
  for (const index of model.order) {
    if (matched[index]) continue;
    const take = bestTake(typo, model.name, index, terms, used, typing);
    if (!take) continue;
    for (let i = index; i < index + take.words; i++) matched[i] = take.quality;
    for (const position of take.positions) {
      used.add(position);
      byName.add(position);
    }
    takes.set(index, take);
  }
  if (!typing) {
    // A small word or suffix far from the rest of the name is not part of it ("se" of "ça se répare").
    for (const [index, take] of takes) {
      const position = take.positions[0]!;
      const term = terms[position]!;
      if (!term.weak && !MODEL_SUFFIXES.has(term.text)) continue;
      const nextToName = [position - 1, take.positions.at(-1)! + 1].some(
        (p) => byName.has(p) && !take.positions.includes(p),
      );
      if (nextToName) continue;
      for (let i = index; i < index + take.words; i++) matched[i] = 0;
      takes.delete(index);
      for (const p of take.positions) {
        used.delete(p);
        byName.delete(p);
      }
    }
  }
  let score = matched.reduce((sum, quality) => sum + quality, 0);
  const extra = takeExtra(typo, model.extra, terms, used, typing);
  score += extra;
  if (typing) score += takeExtra(typo, model.seriesWords, terms, used, typing) * 0.5;
  const missingWords = model.name.filter((word, i) => word.required && !matched[i]).map((word) => word.text);
  const missingRequired = missingWords.length;
  let complete = missingRequired === 0;
  if (!typing && complete) {
    const core = new Set(
      [...takes].filter(([index]) => model.name[index]!.required).flatMap(([, take]) => take.positions),
    );
    complete = contiguous(core, used, terms);
  }
  return {
    consumed: used,
    byName,
    complete,
    missingRequired,
    missingWords,
    extra,
    score,
    unmatchedName: matched.filter((quality) => quality === 0).length,
    hasUnmatchedYear: model.name.some((word, i) => word.qualifier && isYear(word.text) && !matched[i]),
  };
}

/** Whether the required name words' terms stand together, with only small words, brand or family words between them. */
function contiguous(byName: ReadonlySet<number>, used: ReadonlySet<number>, terms: readonly Term[]): boolean {
  const positions = [...byName].sort((a, b) => a - b);
  for (let p = positions[0]! + 1; p < positions.at(-1)!; p++) {
    const term = terms[p]!;
    if (!used.has(p) && !term.weak && !NEUTRAL_WORDS.has(term.text)) return false;
  }
  return true;
}

export { termsOf, type Term };
export { candidatesFor, contradicted, everydayName, repairMatches, typosOf } from "./match-checks.ts";
