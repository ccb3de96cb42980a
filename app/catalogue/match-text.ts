/**
 * Words as the model matcher compares them (issue 17 §1): the terms of a
 * typed text, the words of a model's name, and how one term matches one word
 * (exactly, by an alias, with one typo, glued or split). Used by
 * `./model-matcher.ts`, which the finder (in the browser) and the assistant
 * (on the server) share. No run-time import but `./search-text.ts`.
 */
import { fold } from "./search-text.ts";

/** One word of a typed text: folded letters, or digits ("ps5" gives "ps" and "5"). */
export type Term = {
  readonly text: string;
  /** Index in the text's terms. */
  readonly position: number;
  /** Index of the token it came from: "ps5" → two terms of one group. */
  readonly group: number;
  /** Part of a token mixing letters and digits ("13c", "s24"). */
  readonly compound: boolean;
  /** A French small word or a lone letter ("se", "a", "s" of "s'il"): it names a model only next to its other words. */
  readonly weak: boolean;
  /** The last term of a text still being typed: it may be the start of a word. */
  readonly partial: boolean;
  /**
   * A lone "a" before a word: the verb ("mon iPhone 13 a l'écran cassé") or "à" folded, never
   * a model's letter, which comes before a number or ends the text ("Galaxy Tab A 10.1", "Pixel 7 a").
   */
  readonly filler: boolean;
};

/**
 * French small words that are also model words ("se" of iPhone SE, "a" of
 * Galaxy Tab A, "plus") or that a question carries around a model name.
 */
export const WEAK_WORDS = new Set(
  (
    "a ai au aux avec c ca ce ces d dans de des du en est et il j je l la le les leur lui m ma me mes mon n ne nous on ou " +
    "par pas pour qu que qui s sa se ses si son sur t ta te tes ton tu un une vos votre vous y plus"
  ).split(" "),
);

/** Suffixes that make another model ("Pro", "Max", "Lite"…): one left next to a model name means the customer has another one. */
export const MODEL_SUFFIXES = new Set(
  "pro plus max mini lite ultra se fe xl slim super oled digital neo edition".split(" "),
);

/** Words a visitor writes for a whole family ("tablette samsung"). */
export const FAMILY_WORDS: Record<"smartphone" | "iphone" | "tablet" | "console", readonly string[]> = {
  smartphone: ["smartphone", "telephone", "portable", "mobile"],
  iphone: ["smartphone", "telephone", "portable", "mobile"],
  tablet: ["tablette"],
  console: ["console"],
};

/** Other names of a word of the catalogue ("playstation 4" = "PS4"). */
export const WORD_ALIASES: Readonly<Record<string, readonly string[]>> = {
  ps: ["playstation"],
  apple: ["iphone", "ipad"],
  microsoft: ["surface", "xbox"],
};

/**
 * Other names of a word in a whole question only ("tablette Samsung A9" is
 * the Galaxy Tab A9): in the finder, "tablette" lists every tablet, newest
 * first, and must not rank the names with "Tab" above them.
 */
export const QUESTION_WORD_ALIASES: Readonly<Record<string, readonly string[]>> = {
  tab: ["tablette"],
};

/** Brand names a visitor may add that the catalogue's brand card does not carry. */
export const BRAND_ALIASES: Readonly<Record<string, readonly string[]>> = {
  ipad: ["apple"],
  surface: ["microsoft"],
  xbox: ["microsoft"],
  playstation: ["sony"],
};

/** Network and storage words that never tell two models apart ("5G", "128 Go"). */
export const NEUTRAL_WORDS = new Set([
  "5g",
  "4g",
  "go",
  "gb",
  "to",
  "tb",
  "mo",
  "version",
  "modele",
  "generation",
  "gen",
]);

/** "9e génération", "10ème" → the number: the ordinal's letters are no model's ("16e" is one when no "génération" follows). */
function ordinal(word: string, next: string | undefined): string | undefined {
  const match = /^([0-9]+)(e|er|ere|eme|ieme|nd|nde)$/.exec(word);
  if (!match) return undefined;
  const sure = match[2] !== "e" && match[2] !== "er";
  return sure || next === "generation" || next === "gen" ? match[1] : undefined;
}

/** Model names that are also everyday French words ("encore"): they name the model only beside its brand or family. */
export const EVERYDAY_NAME_WORDS = new Set(["encore"]);

/** Units after a number that make it a capacity, not a model number ("128 Go"). */
export const STORAGE_UNITS = new Set(["go", "gb", "to", "tb", "mo"]);

const isDigits = (text: string) => /^[0-9]+$/.test(text);

/** "Écran (Pro+)" → ["ecran", "pro", "plus"]: folded, "+" spelt "plus", split on anything but letters and digits. */
export function words(text: string): string[] {
  return fold(text)
    .replace(/\+/g, " plus ")
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0);
}

/**
 * The terms of `text`. `typing`: the text is being typed, so its last term
 * is `partial` unless it ends with a space.
 */
export function termsOf(text: string, typing = false): Term[] {
  const terms: Term[] = [];
  // Elided words ("c'est", "l'iPhone", "qu'il") go first: their lone letter is no model's "C" or "S".
  const unelided = text.replace(/(^|[^\p{L}\p{N}])(qu|[cdjlmnst])['’]/giu, "$1");
  const all = words(unelided);
  all.forEach((typed, group) => {
    const next = all[group + 1];
    const word = ordinal(typed, next) ?? typed;
    const parts = word.match(/[a-z]+|[0-9]+/g) ?? [];
    for (const part of parts) {
      terms.push({
        text: part,
        position: terms.length,
        group,
        compound: parts.length > 1,
        weak: parts.length === 1 && (WEAK_WORDS.has(part) || (part.length === 1 && !isDigits(part))),
        partial: false,
        filler: word === "a" && next !== undefined && /^[a-z]{2,}$/.test(next),
      });
    }
  });
  const last = terms.at(-1);
  if (typing && last && !/\s$/.test(text)) terms[terms.length - 1] = { ...last, partial: true };
  return terms;
}

/**
 * Optimal string alignment distance between `a` and `b` (a swap of two
 * neighbouring letters counts as one edit), or `max + 1` once it exceeds `max`.
 */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(rows[i - 1]![j]! + 1, row[j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        value = Math.min(value, rows[i - 2]![j - 2]! + 1);
      row.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > max) return max + 1;
    rows.push(row);
  }
  return rows[a.length]![b.length]!;
}

/**
 * Whether `typed` is `word` with one typo: words of letters only, one edit
 * from 4 letters on (two from 8), a swap of two letters for 3-letter words
 * ("pda" = "pad"). Numbers never ("13" is not "12").
 */
export function isTypo(typed: string, word: string): boolean {
  const key = `${typed} ${word}`;
  let known = typoCache.get(key);
  if (known === undefined) {
    if (typoCache.size > 100_000) typoCache.clear();
    known = typoOf(typed, word);
    typoCache.set(key, known);
  }
  return known;
}

/** Answers of `isTypo` already computed: questions share most of their words. */
const typoCache = new Map<string, boolean>();

function typoOf(typed: string, word: string): boolean {
  if (typed === word || /[0-9]/.test(typed) || /[0-9]/.test(word)) return false;
  const shortest = Math.min(typed.length, word.length);
  if (shortest < 3 || Math.abs(typed.length - word.length) > 2) return false;
  if (shortest === 3) {
    // Three letters: two swapped ("pda"), or one dropped from a four-letter word ("pls", "mii").
    if (typed.length === 3 && word.length === 3) {
      return [...typed].sort().join("") === [...word].sort().join("") && editDistance(typed, word, 1) <= 1;
    }
    return typed.length === 3 && word.length === 4 && editDistance(typed, word, 1) <= 1;
  }
  const allowed = shortest >= 8 ? 2 : 1;
  return editDistance(typed, word, allowed) <= allowed;
}

/** Whether `term` is a word that makes another model when left next to a model name (a number, a suffix, a lone letter). */
export function looksLikeModelPart(term: Term, next: Term | undefined): boolean {
  if (term.filler || NEUTRAL_WORDS.has(term.text)) return false;
  if (isDigits(term.text)) return !(next && STORAGE_UNITS.has(next.text));
  if (term.compound || term.text.length === 1) return true;
  if (MODEL_SUFFIXES.has(term.text)) return true;
  return term.text.length >= 3 && [...MODEL_SUFFIXES].some((suffix) => suffix.length >= 3 && isTypo(term.text, suffix));
}

/** A year as a customer writes it after a model ("iPad 9 2021"). */
export function isYear(text: string): boolean {
  return /^(19|20)[0-9]{2}$/.test(text);
}
