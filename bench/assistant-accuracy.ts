/**
 * The assistant's accuracy on the generated evaluation set (issue 17 §3):
 * accuracy by category (correct / asked back / missing / wrong) and the time
 * per answer (median, p95, ms) of the offline assistant, in this process.
 *
 *   node bench/assistant-accuracy.ts [--examples]
 *
 * `--examples` prints up to five questions per category that were not
 * answered correctly. The test `server/assistant/evaluation/evaluation.test.ts`
 * holds the floors; this prints where we are.
 */
import { brands } from "#app/catalogue/index.ts";
import { evaluate, type Answered } from "#server/assistant/evaluation/grade.ts";
import { generateEvaluationSet } from "#server/assistant/evaluation/set.ts";
import { offlineAnswer, offlineReply } from "#server/assistant/offline.ts";

const showExamples = process.argv.includes("--examples");
const cases = generateEvaluationSet(brands);
// Warm up (the matcher is built on first use, and V8 compiles the hot paths).
for (const test of cases.slice(0, 200)) offlineAnswer(test.question, brands);

const times: number[] = [];
const answer = (question: string): Answered => {
  const started = performance.now();
  const { text, lookups } = offlineReply(question, brands);
  times.push(performance.now() - started);
  return { text, lookups };
};
const reports = await evaluate(cases, answer);

const percent = (value: number, total: number) => `${((100 * value) / total).toFixed(2)} %`;
console.log(`Évaluation de l'assistant hors ligne : ${cases.length} questions`);
console.log("catégorie          total   exact    demandé  manquant  faux");
for (const [category, report] of Object.entries(reports)) {
  console.log(
    `${category.padEnd(18)} ${String(report.total).padStart(5)}  ${percent(report.correct, report.total).padStart(8)}  ${String(report.asked).padStart(6)}  ${String(report.missing).padStart(8)}  ${String(report.wrong).padStart(4)}`,
  );
  if (showExamples) for (const example of report.examples) console.log(`    ${example.outcome}: ${example.question}`);
}
times.sort((a, b) => a - b);
const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
console.log(
  `temps par réponse : médiane ${at(0.5).toFixed(3)} ms, p95 ${at(0.95).toFixed(3)} ms, max ${at(1).toFixed(1)} ms`,
);
