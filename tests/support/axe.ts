/**
 * axe-core (WCAG 2.2 AA) over a page, the one way every spec runs it.
 *
 * Legacy mode runs axe inside the page in one call. The default mode opens a blank page per analysis to
 * merge frame results (`finishRun`): about 1 s more per call on 2 loaded cores, and on the technician's page
 * of the assistant hand-off it never returned. Our pages have no cross-origin frames to merge.
 */
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

export const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

/** One violation, summarised for a readable failure: rule id, impact, help text, up to 5 CSS targets. */
export type Violation = { id: string; impact?: string | null; help: string; targets: string[] };

/** axe violations of `page`, or of the part matching the CSS selector `include`. */
export async function violations(page: Page, include?: string): Promise<Violation[]> {
  let builder = new AxeBuilder({ page }).withTags(WCAG_TAGS).setLegacyMode(true);
  if (include) builder = builder.include(include);
  const results = await builder.analyze();
  return results.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    targets: v.nodes.map((n) => n.target.join(" ")).slice(0, 5),
  }));
}
