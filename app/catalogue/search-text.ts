/**
 * Text side of the model finder (issue 3): how typed text and catalogue
 * names become comparable words, and how one query word is matched.
 *
 * - `fold` / `tokenize`: case and accents dropped, "+" spelled "plus";
 * - `fuzziness`, `repairWordMatch`: the typos allowed, and whether a word
 *   names a repair type ("hdmi", "écran", "batterie"…).
 *
 * Model words are `./match-text.ts`'s; both are light enough for the browser.
 */
import type { RepairId } from "./schema.ts";

/**
 * Lower case, accents removed, "+" spelled "plus" (so "S24+" = "s24 plus"),
 * then split on anything that is not a letter or a digit.
 * `tokenize("Écran (Pro+)")` → ["ecran", "pro", "plus"].
 */
export function tokenize(text: string): string[] {
  return fold(text)
    .replace(/\+/g, " plus ")
    .split(/[^a-z0-9]+/)
    .filter((token) => token.length > 0);
}

/** Lower case without diacritics: `fold("Écran arrière")` → "ecran arriere". */
export function fold(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .toLowerCase();
}

/**
 * How a term is matched. Numbers are never fuzzy ("13" must not find "12");
 * words of 4–5 letters allow one typo, longer words two ("iphnoe" → "iphone").
 */
export function fuzziness(term: string): number {
  if (/[0-9]/.test(term) || term.length < 4) return 0;
  return term.length < 6 ? 1 : 2;
}

/**
 * Other words for a repair type, folded (not labels: labels come from the
 * catalogue). A query word equal to one of them names that repair.
 */
export const REPAIR_ALIASES: Partial<Record<RepairId, readonly string[]>> = {
  ecran: ["screen", "dalle", "lcd", "tactile"],
  "ecran-superieur": ["haut"],
  "ecran-inferieur": ["bas", "tactile"],
  batterie: ["battery"],
  "vitre-arriere": ["dos"],
  connecteur: ["charge", "chargeur", "chargement"],
  "connecteur-de-charge": ["chargeur", "chargement"],
  camera: ["photo", "photos", "objectif"],
  "camera-avant": ["selfie"],
  "camera-arriere": ["photo", "photos", "objectif"],
  "lecteur-blu-ray": ["bluray"],
  "disque-dur": ["hdd", "ssd", "stockage"],
  "joy-con": ["joycon", "manette", "manettes", "drift"],
  gamepad: ["manette", "manettes"],
  joysticks: ["joystick", "stick", "sticks", "drift"],
  "port-usb-c": ["usbc", "charge", "chargeur", "chargement"],
  "carte-mere": ["motherboard"],
};

/** Words of labels that name nothing on their own. */
export const STOP_WORDS = new Set(["de", "du", "la", "le", "et"]);

/** Levenshtein distance between `a` and `b`, or `max + 1` once it exceeds `max`. */
function distanceAtMost(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > max) return max + 1;
    previous = current;
  }
  return previous[b.length]!;
}

/** Score of a query word equal to a word of a repair label. */
export const EXACT = 3;

/**
 * How well query word `word` names a repair whose label words are `tokens`:
 * `EXACT` (3), 2 prefix of a label word (3 letters or more), 1 a typo, 0 not at all.
 */
export function repairWordMatch(word: string, tokens: readonly string[]): number {
  if (word.length < 2 || STOP_WORDS.has(word)) return 0;
  let best = 0;
  for (const token of tokens) {
    if (token === word) return EXACT;
    if (word.length >= 3 && token.startsWith(word)) best = Math.max(best, 2);
    else if (best < 1) {
      const typos = fuzziness(word);
      if (typos > 0 && distanceAtMost(word, token, typos) <= typos) best = 1;
    }
  }
  return best;
}
