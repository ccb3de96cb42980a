/**
 * Issue 30 (decision 029): on an islands page, a form's JavaScript behaviours (sending state, slot
 * sentence, plan choice…) are plain DOM enhancers, each marking its element once attached
 * (`data-enhanced="form slots"`). Before that the form still works: it posts natively.
 */
import { expect, type Page } from "@playwright/test";

/** Resolves once the enhancer `name` is attached to every element `selector` matches (at least one). */
export async function enhanced(page: Page, selector: string, name = "form"): Promise<void> {
  const elements = page.locator(selector);
  await expect(elements.first()).toBeAttached();
  await expect(elements.and(page.locator(`:not([data-enhanced~="${name}"])`))).toHaveCount(0);
}

/** `sessionStorage` key where `recordSendingStates` writes what the submit buttons showed. */
const SENDING_KEY = "e2e-sending-states";

/**
 * Records, in every document of `page`, each change of a submit button's text or `disabled` while its
 * form is sent (`{ text, disabled }`). A native post replaces the document as soon as it starts, for
 * Playwright (its execution context is gone): the button cannot be read from the test then, but the
 * page still shows it until the answer arrives, and a record kept in `sessionStorage` survives.
 */
export async function recordSendingStates(page: Page): Promise<void> {
  await page.addInitScript((key) => {
    const record = (button: HTMLButtonElement) => {
      const states = JSON.parse(sessionStorage.getItem(key) ?? "[]") as unknown[];
      states.push({ text: button.textContent?.trim(), disabled: button.disabled });
      sessionStorage.setItem(key, JSON.stringify(states));
    };
    document.addEventListener("DOMContentLoaded", () => {
      for (const button of document.querySelectorAll<HTMLButtonElement>('button[type="submit"]'))
        new MutationObserver(() => record(button)).observe(button, {
          attributes: true,
          attributeFilter: ["disabled"],
          characterData: true,
          subtree: true,
        });
    });
  }, SENDING_KEY);
}

/** What `recordSendingStates` saw, in order. */
export async function sendingStates(page: Page): Promise<{ text: string; disabled: boolean }[]> {
  return page.evaluate((key) => JSON.parse(sessionStorage.getItem(key) ?? "[]"), SENDING_KEY);
}
