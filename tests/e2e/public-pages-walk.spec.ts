/**
 * Issue 40, every public page walked:
 * - « The home page scrolls sideways on a phone »: no public page may scroll horizontally at 320, 360, 390 or
 *   768 px. Each page is loaded once at the narrowest width, then the window widened: the layout is measured
 *   again at every width, as a phone turned or a tablet shows it.
 * - « Two promises contradict each other »: a sentence promising the 12-month repair warranty says it is that of
 *   original parts (or gives the 30 days of compatible parts too, catalogue §9), never « toutes nos réparations ».
 */
import { expect, test } from "@playwright/test";
import { PRERENDERED_PATHS } from "#app/config/public-routes.ts";

const WIDTHS = [320, 360, 390, 768] as const;
/** Every public page: the pre-rendered ones, and those rendered for each visitor. */
const ROUTES = [...PRERENDERED_PATHS, "/rendez-vous", "/suivi", "/soft-assist"];

test.describe.configure({ timeout: 120_000 });

test("no public page scrolls sideways at phone and tablet widths", { tag: "@mobile" }, async ({ page }) => {
  const sideways: string[] = [];
  for (const route of ROUTES) {
    await page.setViewportSize({ width: WIDTHS[0], height: 740 });
    await page.goto(route);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 740 });
      const overflow = await page.evaluate(() => {
        const root = document.documentElement;
        if (root.scrollWidth <= root.clientWidth) return null;
        // What sticks out, for a readable failure: the widest elements past the right edge.
        const past = [...document.body.querySelectorAll<HTMLElement>("*")]
          .filter((element) => element.getBoundingClientRect().right > root.clientWidth + 0.5)
          .slice(-3)
          .map((element) => `${element.tagName.toLowerCase()}.${[...element.classList].slice(0, 3).join(".")}`);
        return `${root.scrollWidth} px (${past.join(", ")})`;
      });
      if (overflow) sideways.push(`${route} at ${width} px: ${overflow}`);
    }
  }
  expect(sideways).toEqual([]);
});

test("every page naming the repair warranty says it the same way", { tag: "@mobile" }, async ({ request }) => {
  const contradicting: string[] = [];
  for (const route of ROUTES) {
    const html = await (await request.get(route)).text();
    const text = html
      .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/g, " ")
      .replace(/<[^>]+>/g, " ")
      .replace(/&#x27;|&#39;/g, "'")
      .replace(/&nbsp;|\s+/g, " ");
    // Sentences promising a repair warranty of 12 months (titles such as « Garantie 12 mois » are the spec's).
    for (const sentence of text.match(/[^.!?]*(?:répar|pièces)[^.!?]*garanti[^.!?]*12 mois[^.!?]*[.!?]/gi) ?? [])
      // Twelve months is the warranty of original parts: said of every repair, or of none in particular, it
      // promises what the compatible parts' 30 days take back.
      if (/toutes nos réparations/i.test(sentence) || (!/d'origine/i.test(sentence) && !/30 jours/.test(sentence)))
        contradicting.push(`${route}: « ${sentence.trim()} »`);
  }
  expect(contradicting).toEqual([]);
});
