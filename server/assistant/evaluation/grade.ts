/**
 * Grading the assistant on the evaluation set (issue 17 §3).
 *
 * A price question's outcome, from the catalogue lookup behind the answer
 * and the answer's text:
 * - `correct`: the asked model, with the asked repair named and its price,
 *   written in the text as "Repair : à partir de N €";
 * - `asked`: several candidates listed, the asked model among them (the
 *   customer is asked which one: not an answer, not a wrong one);
 * - `missing`: no model, another repair, or the model without the repair
 *   named (a missing answer is better than a wrong one);
 * - `wrong`: another model's price presented as the answer, a wrong amount,
 *   or any amount in the text that the lookup and the facts do not give.
 * A fact question is right when the answer holds every expected value and
 * never says "modèle non trouvé"; a device not repaired, when the answer says
 * it is not in the catalogue, links to /contact and writes no amount.
 */
import { FACT_AMOUNTS } from "../facts.ts";
import { quotedAmounts, type PriceLookup } from "../knowledge.ts";
import { NOT_FOUND_TEXT } from "../offline.ts";
import { amountsIn } from "../price-guard.ts";
import type { EvaluationCase, PriceCase } from "./set.ts";

export type Outcome = "correct" | "asked" | "missing" | "wrong";

/** What the assistant gave for one question: its text and the catalogue lookup(s) it answered from. */
export type Answered = { text: string; lookups: readonly PriceLookup[] };

const allowed = (lookups: readonly PriceLookup[]) =>
  new Set([...lookups.flatMap(quotedAmounts), ...FACT_AMOUNTS].map((euros) => Math.round(euros * 100)));

/** Amounts written in `text` that neither the lookups nor the facts give (€). */
export function strayAmounts(text: string, lookups: readonly PriceLookup[]): number[] {
  const ok = allowed(lookups);
  return amountsIn(text).filter((euros) => !ok.has(Math.round(euros * 100)));
}

/**
 * The outcome of a price question. `checkText`: also require the price
 * written as the offline assistant writes it (off for a model's own wording).
 */
export function gradePrice(test: PriceCase, answered: Answered, checkText = true): Outcome {
  if (strayAmounts(answered.text, answered.lookups).length > 0) return "wrong";
  const lookup = answered.lookups.at(-1);
  if (!lookup || lookup.kind === "not-found") return "missing";
  if (lookup.kind === "ambiguous") {
    return lookup.candidates.some((candidate) => candidate.slug === test.modelSlug) ? "asked" : "missing";
  }
  if (lookup.model.slug !== test.modelSlug) return "wrong";
  const quoted = lookup.model.repairs.find((repair) => repair.id === test.repairId);
  if (!lookup.repairNamed || !quoted) return "missing";
  if (quoted.euros !== test.euros) return "wrong";
  if (checkText && !answered.text.includes(`${quoted.repair} : ${quoted.price}`)) return "missing";
  return "correct";
}

/** Whether a fact or a not-repaired device question got its answer (see the module's documentation). */
export function gradeOther(test: Exclude<EvaluationCase, PriceCase>, text: string): boolean {
  if (test.category === "fait") {
    return test.expected.every((value) => text.includes(value)) && !text.includes(NOT_FOUND_TEXT);
  }
  return text.includes(NOT_FOUND_TEXT) && text.includes("/contact") && amountsIn(text).length === 0;
}

/** Results of one category. */
export type CategoryReport = {
  total: number;
  correct: number;
  asked: number;
  missing: number;
  wrong: number;
  /** correct / total, 0–1. */
  accuracy: number;
  /** Up to 5 questions that were not correct, with their outcome. */
  examples: { question: string; outcome: Outcome }[];
};

/**
 * Runs `answer` on every case and reports by category. Synchronous answers
 * (the offline assistant) and asynchronous ones (a provider) alike.
 */
export async function evaluate(
  cases: readonly EvaluationCase[],
  answer: (question: string) => Answered | Promise<Answered>,
): Promise<Record<string, CategoryReport>> {
  const reports: Record<string, CategoryReport> = {};
  for (const test of cases) {
    const answered = await answer(test.question);
    const outcome: Outcome =
      test.category === "fait" || test.category === "hors-catalogue"
        ? gradeOther(test, answered.text)
          ? "correct"
          : strayAmounts(answered.text, answered.lookups).length > 0
            ? "wrong"
            : "missing"
        : gradePrice(test, answered);
    const report = (reports[test.category] ??= {
      total: 0,
      correct: 0,
      asked: 0,
      missing: 0,
      wrong: 0,
      accuracy: 0,
      examples: [],
    });
    report.total++;
    report[outcome]++;
    if (outcome !== "correct" && report.examples.length < 5) report.examples.push({ question: test.question, outcome });
  }
  for (const report of Object.values(reports)) report.accuracy = report.correct / report.total;
  return reports;
}
