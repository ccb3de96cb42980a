/**
 * Where the test suite's time goes (issue 30 §3), from the reports the runners write; it runs no test itself.
 *
 *   CI=true PLAYWRIGHT_JSON_OUTPUT_NAME=/tmp/e2e.json npx playwright test --reporter=list,json
 *   npx vitest run --reporter=default --reporter=json --outputFile.json=/tmp/unit.json
 *   node bench/slowest-tests.ts /tmp/e2e.json [/tmp/unit.json] [count]
 *
 * Prints, for Playwright: the run's wall time, worker time (the sum of test durations, s) per project and per spec
 * file, and the `count` (default 10) slowest tests; for Vitest: the sum of file durations and the slowest files.
 */
import { readFileSync } from "node:fs";

type PlaywrightResult = { duration: number; status: string };
type PlaywrightSpec = { title: string; line: number; tests: { projectName: string; results: PlaywrightResult[] }[] };
type PlaywrightSuite = { title: string; file?: string; specs?: PlaywrightSpec[]; suites?: PlaywrightSuite[] };
type PlaywrightReport = {
  suites: PlaywrightSuite[];
  stats: { duration: number; expected: number; unexpected: number };
};
type VitestReport = {
  testResults: { name: string; startTime: number; endTime: number; assertionResults: unknown[] }[];
};

const args = process.argv.slice(2);
const count = Number(args.find((arg) => /^\d+$/.test(arg)) ?? 10);
const [e2eFile, unitFile] = args.filter((arg) => !/^\d+$/.test(arg));
if (!e2eFile) {
  console.error("usage : node bench/slowest-tests.ts <playwright.json> [vitest.json] [nombre]");
  process.exit(1);
}

const seconds = (ms: number) => (ms / 1000).toFixed(1).padStart(7);

/** Every test run of the report: file, line, title, project, duration (ms). */
function playwrightRuns(report: PlaywrightReport) {
  const runs: { file: string; line: number; title: string; project: string; ms: number }[] = [];
  const visit = (suite: PlaywrightSuite, file: string, titles: string[]) => {
    const here = suite.file ?? file;
    const path = suite.file ? [] : [...titles, suite.title];
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) {
        const ms = test.results.reduce((sum, result) => sum + result.duration, 0);
        const title = [...path, spec.title].filter(Boolean).join(" › ");
        runs.push({ file: here, line: spec.line, title, project: test.projectName, ms });
      }
    }
    for (const child of suite.suites ?? []) visit(child, here, path);
  };
  for (const suite of report.suites) visit(suite, suite.file ?? suite.title, []);
  return runs;
}

function table(totals: Map<string, number>, limit = Infinity) {
  for (const [name, ms] of [...totals].sort((a, b) => b[1] - a[1]).slice(0, limit))
    console.log(`${seconds(ms)} s  ${name}`);
}

const e2e = JSON.parse(readFileSync(e2eFile, "utf8")) as PlaywrightReport;
const runs = playwrightRuns(e2e);
const byProject = new Map<string, number>();
const byFile = new Map<string, number>();
for (const run of runs) {
  byProject.set(run.project, (byProject.get(run.project) ?? 0) + run.ms);
  byFile.set(run.file, (byFile.get(run.file) ?? 0) + run.ms);
}
console.log(
  `Playwright : ${runs.length} tests, ${e2e.stats.unexpected} en échec, durée ${seconds(e2e.stats.duration).trim()} s`,
);
console.log("\nTemps de worker par projet :");
table(byProject);
console.log("\nTemps de worker par fichier :");
table(byFile, 15);
console.log(`\nLes ${count} tests les plus lents :`);
for (const run of [...runs].sort((a, b) => b.ms - a.ms).slice(0, count)) {
  console.log(`${seconds(run.ms)} s  [${run.project}] ${run.file}:${run.line} ${run.title}`);
}

if (unitFile) {
  const unit = JSON.parse(readFileSync(unitFile, "utf8")) as VitestReport;
  const files = new Map(
    unit.testResults.map((file) => [file.name.replace(`${process.cwd()}/`, ""), file.endTime - file.startTime]),
  );
  const total = [...files.values()].reduce((sum, ms) => sum + ms, 0);
  console.log(
    `\nVitest : ${files.size} fichiers, somme des durées ${seconds(total).trim()} s ; les ${count} plus lents :`,
  );
  table(files, count);
}
