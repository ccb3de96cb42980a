/**
 * The mobile menu's behaviour beyond what the native `<dialog>` does by itself (spec §2, issues 2
 * and 16), as plain DOM code shared by the hydrated `MobileMenu` and the content pages' islands
 * script (docs/decisions/013): Tab wrapped inside the open dialog, the toggle's `aria-expanded`
 * following the dialog, focus back on the toggle when it closes, and opening/closing by click in
 * browsers without HTML invoker commands.
 */

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The parts of a keyboard event `wrapFocus` reads (a DOM or a React event). */
type TabKeyEvent = { key: string; shiftKey: boolean; preventDefault(): void };

/** Keeps Tab / Shift+Tab inside `container`. */
export function wrapFocus(event: TabKeyEvent, container: HTMLElement) {
  if (event.key !== "Tab") return;
  const focusable = Array.from(container.querySelectorAll<HTMLElement>(FOCUSABLE));
  const first = focusable[0];
  const last = focusable[focusable.length - 1];
  if (!first || !last) return;
  const active = document.activeElement;
  if (event.shiftKey && (active === first || !container.contains(active))) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (active === last || !container.contains(active))) {
    event.preventDefault();
    first.focus();
  }
}

/** True where buttons can open dialogs by themselves (HTML invoker commands). */
export const supportsInvokerCommands = () =>
  typeof HTMLButtonElement !== "undefined" && "command" in HTMLButtonElement.prototype;

/**
 * Gives the server-rendered menu (`#menu-mobile` and the buttons whose `commandfor` names it) its
 * behaviour without React. Does nothing when the page has no such menu.
 */
export function enhanceMobileMenu(root: ParentNode = document): void {
  const dialog = root.querySelector<HTMLDialogElement>("dialog#menu-mobile");
  if (!dialog) return;
  const toggle = root.querySelector<HTMLButtonElement>('button[commandfor="menu-mobile"][command="show-modal"]');
  const sync = () => toggle?.setAttribute("aria-expanded", String(dialog.open));
  sync(); // it may have been opened before this script ran
  dialog.addEventListener("toggle", sync);
  dialog.addEventListener("close", () => {
    sync(); // "toggle" also says so, but later (queued)
    toggle?.focus();
  });
  dialog.addEventListener("keydown", (event) => wrapFocus(event, dialog));
  if (supportsInvokerCommands()) return;
  for (const button of root.querySelectorAll<HTMLButtonElement>('button[commandfor="menu-mobile"]')) {
    button.addEventListener("click", () => {
      if (button.getAttribute("command") === "close") dialog.close();
      else if (!dialog.open) dialog.showModal();
    });
  }
}
