/**
 * Focus trap checks for dialogs (WCAG 2.4.3, 2.1.2): presses a key `times` times as a person would and
 * reports every element focus landed on that is outside `container`. One listener in the page records
 * where focus goes, instead of a page round trip after each key press (a menu of 40 links took > 30 s
 * on 2 loaded cores that way).
 */
import type { Locator, Page } from "@playwright/test";

/** Descriptions (tag#id.class) of the elements outside `container` that got focus during the presses. */
export async function focusEscapes(page: Page, container: Locator, key: string, times: number): Promise<string[]> {
  const handle = await container.elementHandle();
  if (!handle) throw new Error("focus container not found");
  await page.evaluate((element) => {
    const escapes: string[] = [];
    (window as unknown as { __focusEscapes: string[] }).__focusEscapes = escapes;
    document.addEventListener("focusin", (event) => {
      const target = event.target as Element;
      if (!element.contains(target)) escapes.push(`${target.tagName.toLowerCase()}#${target.id}.${target.className}`);
    });
  }, handle);
  for (let i = 0; i < times; i++) await page.keyboard.press(key);
  // The last press's focus is checked directly too: focus may stay on <body> without any focusin.
  return page.evaluate((element) => {
    const escapes = [...(window as unknown as { __focusEscapes: string[] }).__focusEscapes];
    if (!element.contains(document.activeElement)) escapes.push(`active: ${document.activeElement?.tagName}`);
    return escapes;
  }, handle);
}
