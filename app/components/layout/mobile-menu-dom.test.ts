// @vitest-environment happy-dom
/**
 * The mobile menu without React (issue 16, content pages): the toggle's `aria-expanded` follows
 * the dialog, Tab stays inside it, and focus goes back to the toggle when it closes.
 */
import { describe, expect, it } from "vitest";
import { enhanceMobileMenu } from "./mobile-menu-dom.ts";

function page() {
  document.body.innerHTML = `
    <button type="button" command="show-modal" commandfor="menu-mobile" aria-expanded="false">Ouvrir le menu</button>
    <dialog id="menu-mobile" aria-label="Menu principal">
      <button type="button" command="close" commandfor="menu-mobile">Fermer le menu</button>
      <a href="/">Accueil</a>
      <a href="/contact">Contact</a>
    </dialog>`;
  return {
    toggle: document.querySelector("button")!,
    dialog: document.querySelector("dialog")!,
    links: [...document.querySelectorAll("a")],
  };
}

const tab = (target: Element, shiftKey = false) =>
  target.dispatchEvent(new KeyboardEvent("keydown", { key: "Tab", shiftKey, bubbles: true, cancelable: true }));

describe("enhanceMobileMenu", () => {
  it("sets aria-expanded from the dialog, also when it was opened before the script ran", () => {
    const { toggle, dialog } = page();
    dialog.showModal();
    enhanceMobileMenu();
    expect(toggle).toHaveAttribute("aria-expanded", "true");
    dialog.close();
    expect(toggle).toHaveAttribute("aria-expanded", "false");
    expect(toggle).toHaveFocus();
  });

  it("wraps Tab and Shift+Tab inside the open dialog", () => {
    const { dialog, links } = page();
    enhanceMobileMenu();
    dialog.showModal();
    links[1]!.focus();
    expect(tab(links[1]!)).toBe(false); // default prevented: focus moved by the script
    expect(document.querySelector('button[command="close"]')).toHaveFocus();
    expect(tab(document.activeElement!, true)).toBe(false);
    expect(links[1]).toHaveFocus();
  });
});
