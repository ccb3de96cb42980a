/**
 * axe-core (WCAG 2.2 AA) over a page, the one way every spec runs it.
 *
 * axe-core itself, injected once per document and run in the page, rather than `@axe-core/playwright`:
 * its `analyze()` evaluates the 560 KB axe source twice per call (a frame pass and a legacy pass) and, by
 * default, opens a blank page per analysis to merge frame results. On 2 busy cores that was 10–17 s per
 * call in a CI run, and on the technician's page of the assistant hand-off the merge never returned.
 * Our pages have no cross-origin frames to merge.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "@playwright/test";

export const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** One violation, summarised for a readable failure: rule id, impact, help text, up to 5 CSS targets. */
export type Violation = { id: string; impact?: string | null; help: string; targets: string[] };

type AxeWindow = {
  axe?: {
    run(
      context: unknown,
      options: unknown,
    ): Promise<{
      violations: { id: string; impact?: string | null; help: string; nodes: { target: unknown[] }[] }[];
    }>;
  };
};

/** axe violations of `page`, or of the part matching the CSS selector `include`. */
export async function violations(page: Page, include?: string): Promise<Violation[]> {
  // A navigation gives a new document without axe; a same-document update (a form answer) keeps it.
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE_SOURCE);
  await settleTransitions(page);
  return page.evaluate(
    async ({ include, tags }) => {
      const { axe } = window as unknown as AxeWindow;
      // Only violations carry node details back: passes over a long price page are thousands of nodes.
      const results = await axe!.run(include ? { include: [include] } : document, {
        runOnly: { type: "tag", values: tags },
        resultTypes: ["violations"],
      });
      return results.violations.map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        targets: v.nodes.map((n) => n.target.map(String).join(" ")).slice(0, 5),
      }));
    },
    { include, tags: WCAG_TAGS },
  );
}

/**
 * Waits (at most 2 s) for the page's finite CSS transitions and animations to end: a button changing from
 * « secondaire » to « principal » after a click has, for 150 ms, colours between the two, and axe measured
 * that mix as a contrast failure in a CI run. What axe must judge is what the user reads once it settles.
 */
async function settleTransitions(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const finite = document
      .getAnimations()
      .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity);
    const ended = Promise.all(finite.map((animation) => animation.finished.catch(() => undefined)));
    await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, 2_000))]);
  });
}
