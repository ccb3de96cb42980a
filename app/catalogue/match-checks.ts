/**
 * The model matcher's lookups and checks (issue 17 §1), beside
 * `./model-matcher.ts` which aligns one model with a text:
 * - `typosOf`, `candidatesFor`: which words a term may be a typo of, and
 *   which models are worth aligning at all (cached per matcher);
 * - `contradicted`: whether the words around a name say "another model";
 * - `everydayName`: names that are everyday words ("Encore");
 * - `repairMatches`: the repairs the remaining words name, and with which words.
 * Type-only imports from `./model-matcher.ts` (no cycle at run time).
 */
import type { Alignment, Matcher, PreparedModel } from "./model-matcher.ts";
import { EVERYDAY_NAME_WORDS, FAMILY_WORDS, isTypo, isYear, looksLikeModelPart, type Term } from "./match-text.ts";
import type { RepairId } from "./schema.ts";
import { EXACT, repairWordMatch } from "./search-text.ts";

/** Matcher → term text → the vocabulary words it is a typo of (`isTypo`), computed once per text. */
const typoIndex = new WeakMap<Matcher, Map<string, ReadonlySet<string>>>();

/** The words of `matcher`'s vocabulary that `text` is a typo of. */
export function typosOf(matcher: Matcher, text: string): ReadonlySet<string> {
  let cache = typoIndex.get(matcher);
  if (!cache) typoIndex.set(matcher, (cache = new Map()));
  let found = cache.get(text);
  if (!found) {
    const set = new Set<string>();
    if (text.length >= 3 && !/[0-9]/.test(text)) {
      for (const word of matcher.vocabulary.keys()) if (isTypo(text, word)) set.add(word);
    }
    if (cache.size > 20_000) cache.clear();
    cache.set(text, (found = set));
  }
  return found;
}

/**
 * The models worth aligning with `terms`: those having a word some term
 * matches exactly, with a typo, as a prefix (typing), glued or split. Every
 * model `align` could match is in it; catalogue order.
 */
export function candidatesFor(matcher: Matcher, terms: readonly Term[], typing: boolean): number[] {
  const found = new Set<number>();
  const add = (word: string) => {
    // A family word alone names no model: it only narrows the finder's list.
    if (!typing && FAMILY.has(word)) return;
    for (const id of matcher.vocabulary.get(word) ?? []) found.add(id);
  };
  for (const term of terms) {
    add(term.text);
    // Glued words: "redmipad" starts with "redmi".
    for (let length = 2; length < term.text.length; length++) add(term.text.slice(0, length));
    const next = terms[term.position + 1];
    if (next) add(term.text + next.text);
    if (typing && term.partial) for (const word of matcher.vocabulary.keys()) if (word.startsWith(term.text)) add(word);
    for (const word of typosOf(matcher, term.text)) add(word);
  }
  return [...found].sort((a, b) => a - b);
}

const FAMILY = new Set(Object.values(FAMILY_WORDS).flat());

/** A name made of one everyday word ("Encore"): it needs its brand, family, a possessive or a repair beside it. */
export function everydayName(model: PreparedModel): boolean {
  const required = model.name.filter((word) => word.required);
  return required.length === 1 && EVERYDAY_NAME_WORDS.has(required[0]!.text);
}

/**
 * Whether the words around the name say the customer has another model:
 * another maker's name (with `context`), a glued token only half matched
 * ("16e", "6s" for "Pad 6"), a number, suffix or letter right after the name
 * ("Switch 2", "One X"), or another year than the model's.
 */
export function contradicted(
  alignment: Alignment,
  terms: readonly Term[],
  isRepairWord: (term: Term) => boolean,
  context?: { matcher: Matcher; model: PreparedModel },
): boolean {
  const { byName, consumed } = alignment;
  // Another maker named ("Oppo Find X7" is no Honor X7).
  if (
    context &&
    terms.some((term) => context.matcher.brandWords.has(term.text) && !context.model.brandWords.includes(term.text))
  ) {
    return true;
  }
  for (const position of byName) {
    const term = terms[position]!;
    if (term.compound && terms.some((other) => other.group === term.group && !consumed.has(other.position)))
      return true;
    const next = terms[position + 1];
    if (!next || consumed.has(next.position) || isRepairWord(next)) continue;
    if (isYear(next.text)) {
      if (alignment.hasUnmatchedYear) return true;
      continue;
    }
    // "Tab S9 FE+": a "plus" after a name is a suffix, other small words are not ("iPhone 13 de 2021").
    if (next.weak && next.text.length > 1 && next.text !== "plus") continue;
    if (looksLikeModelPart(next, terms[position + 2])) return true;
    // A word of another model of the same maker ("Redmi Note 14" is no Redmi 13).
    if (
      context &&
      context.matcher.nameWords.get(context.model.brand)?.has(next.text) &&
      !context.model.name.some((word) => word.text === next.text)
    ) {
      return true;
    }
  }
  return false;
}

/** For each repair of `ids` that the terms not in `taken` name: which terms, and how well (3 exact, 2 prefix while typing, 1 typo). */
export function repairMatches(
  matcher: Matcher,
  ids: readonly RepairId[],
  terms: readonly Term[],
  taken: ReadonlySet<number>,
): Map<RepairId, { position: number; score: number }[]> {
  const found = new Map<RepairId, { position: number; score: number }[]>();
  for (const term of terms) {
    if (taken.has(term.position) || (term.weak && term.text.length < 3)) continue;
    for (const id of ids) {
      const words = matcher.repairWords.get(id) ?? [];
      const match = repairWordMatch(term.text, words);
      // A prefix names a repair only while it is being typed ("hdm"); a typo is one edit ("charge" is no "carte").
      const typo = match === 1 && words.some((word) => isTypo(term.text, word));
      if (match === EXACT || typo || (match === 2 && term.partial)) {
        const list = found.get(id) ?? [];
        list.push({ position: term.position, score: match });
        found.set(id, list);
      }
    }
  }
  return found;
}
