/**
 * Test support of the islands pages' enhancers (issue 30, docs/decisions/029-forms-as-islands-pages.md): a
 * component rendered to HTML as the server renders an islands page (`renderToString`, React never runs in the
 * document), the events the browser fires, and `sandboxEachTest()`, which removes after each test the
 * listeners the enhancers added to `window`, `document` and the tab's auth channel (no page ever removes
 * them), so that no test sees another's detached form.
 */
import type { ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { afterEach, beforeEach, vi } from "vitest";

/** The auth channel's name (`auth-broadcast.ts`): another tab of this browser posts on it. */
export const AUTH_CHANNEL = "atelier-soft-assist-auth";

/** Puts `element`, rendered by the server at `url` (a route `path`), in the document, as on an islands page. */
export function renderPage(path: string, element: () => ReactNode, url = path) {
  const Stub = createRoutesStub([{ path, Component: element }]);
  document.body.innerHTML = renderToString(<Stub initialEntries={[url]} />);
}

/** The element carrying `data-enhance` with `name` among its enhancers. */
export function enhanced<T extends HTMLElement>(name: string): T {
  const element = document.querySelector<T>(`[data-enhance~="${name}"]`);
  if (!element) throw new Error(`no element to enhance with « ${name} »`);
  return element;
}

/** Dispatches the submit event the browser fires for `button`; true when nothing cancelled it. */
export function submit(
  form: HTMLFormElement,
  button: HTMLElement | null = form.querySelector('[type="submit"]'),
): boolean {
  return form.dispatchEvent(new SubmitEvent("submit", { bubbles: true, cancelable: true, submitter: button }));
}

/** The page coming back (`persisted`: from the back-forward cache), as `pageshow` says. */
export function pageShow(persisted: boolean) {
  const event = new Event("pageshow");
  Object.defineProperty(event, "persisted", { value: persisted });
  window.dispatchEvent(event);
}

export const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

// Every listener the enhancers add during a test, removed after it.
const added: { target: EventTarget; type: string; listener: EventListenerOrEventListenerObject | null }[] = [];
export function trackListeners(target: EventTarget) {
  const add = target.addEventListener;
  vi.spyOn(target, "addEventListener").mockImplementation(function (
    this: EventTarget,
    type: string,
    listener: EventListenerOrEventListenerObject | null,
    options?: AddEventListenerOptions | boolean,
  ) {
    added.push({ target: this, type, listener });
    add.call(this, type, listener, options);
  });
}

/** Registers the hooks that give each test an empty page, address, session storage and listener list. */
export function sandboxEachTest(): void {
  beforeEach(() => {
    document.body.innerHTML = "";
    history.replaceState(null, "", "/");
    sessionStorage.clear();
    for (const target of [window, document, BroadcastChannel.prototype]) trackListeners(target);
  });

  afterEach(() => {
    vi.restoreAllMocks();
    for (const { target, type, listener } of added.splice(0)) target.removeEventListener(type, listener);
    document.body.innerHTML = "";
    history.replaceState(null, "", "/");
    sessionStorage.clear();
  });
}
