/**
 * What customers say instead of a repair's name (issue 18, hand probes of the
 * assistant): "ma PS5 ne lit plus les disques" is the Blu-ray drive, not the
 * hard disk; "vitre cassée" on a phone is the screen, not the back glass;
 * "ne tient plus la charge" is the battery, "ne charge plus" the connector.
 *
 * `rephraseSymptoms` rewrites such phrases into the words of the repair they
 * mean, before the question is matched (`./match-question.ts`). Only phrases
 * whose meaning depends on the words around them live here; a word that
 * always names one repair ("manette", "drift") is an alias in
 * `REPAIR_ALIASES` (`./search-text.ts`), which the finder shares.
 *
 * Pure; works on folded text (lower case, no accents, as `fold` gives).
 */
import { fold } from "./search-text.ts";

/** One rewrite: every match of `pattern` (folded text, global) becomes `replacement`. */
export type SymptomRule = { readonly pattern: RegExp; readonly replacement: string };

/** Rules in the order they apply: the battery's "charge" before the connector's. */
export const SYMPTOM_RULES: readonly SymptomRule[] = [
  // "Prise en charge" is care, not charging.
  { pattern: /\b(pri[a-z]*|pren[a-z]*)\s+en\s+charge\b/g, replacement: " " },
  // The battery: it no longer holds the charge, drains, swells.
  {
    pattern: /\b(tien[a-z]*|tenir|garde[a-z]*)\s+(plus\s+|pas\s+|mal\s+)?(la\s+|sa\s+|une\s+)?charge\b/g,
    replacement: " batterie ",
  },
  { pattern: /\b(se\s+)?decharge[a-z]*\b|\bautonomie\b|\bgonfle(e|s|es)?\b/g, replacement: " batterie " },
  // Charging: the connector (the port of a Switch).
  { pattern: /\b(re)?charg(e|es|ent|er|eait|eais|ait|ais)\b/g, replacement: " charge " },
  // A disc ("disque" without "dur") is read by the drive.
  { pattern: /\bdisques?\b(?!\s*durs?\b)/g, replacement: " lecteur " },
  // "Ne lit plus (les jeux)": the drive.
  { pattern: /\b(lit|lis|lisent|lire|lecture)\s+(plus|pas|rien|mal)\b/g, replacement: " lecteur " },
  {
    pattern: /\b(lit|lis|lisent|lire|lecture|reconnait|accepte|ejecte|avale)\b[^.?!]{0,20}\bjeux?\b/g,
    replacement: " lecteur ",
  },
  // The front glass of a phone is its screen; the back glass says so ("arrière", "dos").
  { pattern: /\bvitres?\b(?![^.?!]{0,30}\b(arriere|dos|derriere)\b)/g, replacement: " ecran " },
  // Heat and noise: the fan.
  { pattern: /\b(sur)?chauff[a-z]*\b|\bbrui(t|ts|yante?s?)\b|\bsouffl[a-z]*\b/g, replacement: " ventilateur " },
];

/** `text` folded, with the phrases of `SYMPTOM_RULES` replaced by the repairs' words. */
export function rephraseSymptoms(text: string): string {
  let folded = fold(text);
  for (const { pattern, replacement } of SYMPTOM_RULES) folded = folded.replace(pattern, replacement);
  return folded;
}
