/**
 * The only script of the content pages and public forms (issue 16, docs/decisions/013; issue 30, 029),
 * instead of React Router's runtime: a few KB of plain DOM code for what every page does (particles,
 * mobile menu, the footer's current year); the forms' enhancers (`data-enhance`), each a small chunk of
 * DOM code, no React; and React only where a page has an island (the model finder, the /sales hero
 * video), loaded as a separate chunk and hydrating that component alone.
 * Links are plain `<a href>` and forms post natively: each one loads the page the server renders.
 */
import { enhanceMobileMenu } from "#app/components/layout/mobile-menu-dom.ts";
import { animateParticles } from "#app/components/layout/particles.ts";
import { ENHANCE_ATTRIBUTE, ISLAND_ATTRIBUTE, type EnhancerName, type IslandName } from "./names.ts";

type IslandModule = { mount(container: HTMLElement, props: never): void };
type EnhancerModule = { enhance(element: HTMLElement): void };

const ISLANDS: Record<IslandName, () => Promise<IslandModule>> = {
  finder: () => import("./finder-island.tsx"),
  "hero-video": () => import("./hero-video-island.tsx"),
};

const ENHANCERS: Record<EnhancerName, () => Promise<EnhancerModule>> = {
  form: () => import("./enhancers/form.ts"),
  slots: () => import("./enhancers/slots.ts"),
  "quote-plan": () => import("./enhancers/quote-plan.ts"),
  "sign-in": () => import("./enhancers/sign-in.ts"),
};

/** Runs each marked element's enhancers (`data-enhance="form slots"`): at once, a form may be used early. */
function enhanceForms() {
  for (const element of document.querySelectorAll<HTMLElement>(`[${ENHANCE_ATTRIBUTE}]`)) {
    for (const name of (element.getAttribute(ENHANCE_ATTRIBUTE) ?? "").split(/\s+/u)) {
      const load = ENHANCERS[name as EnhancerName];
      if (!load) continue;
      load().then(
        (enhancer) => {
          enhancer.enhance(element);
          // What is attached, for a test (and a curious developer) to read: `data-enhanced="form slots"`.
          element.dataset.enhanced = `${element.dataset.enhanced ?? ""} ${name}`.trim();
        },
        (error: unknown) => console.error(error),
      );
    }
  }
}
enhanceForms();

/**
 * Issue 30: a page loaded by a form's post (or its redirect) puts focus where the answer is: the first
 * invalid field of an enhanced form, else the message marked `data-focus-on-load` (a confirmation, a
 * refusal), so that it is seen and read out. Not on Back/Forward, nor once the visitor has moved on.
 * After the load event and a frame: Chromium applies an address's fragment (`#message`) until then, and
 * clearing the focus is part of it.
 */
function focusOnLoad() {
  const navigation = performance.getEntriesByType?.("navigation")[0] as PerformanceNavigationTiming | undefined;
  if (navigation?.type === "back_forward") return;
  const target =
    document.querySelector<HTMLElement>(`form[${ENHANCE_ATTRIBUTE}~="form"] [aria-invalid="true"]`) ??
    document.querySelector<HTMLElement>("[data-focus-on-load]");
  if (!target) return;
  const focus = () =>
    requestAnimationFrame(() =>
      setTimeout(() => {
        const active = document.activeElement;
        if (!active || active === document.body) target.focus();
      }, 0),
    );
  if (document.readyState === "complete") focus();
  else window.addEventListener("load", focus, { once: true });
}
focusOnLoad();

const canvas = document.querySelector<HTMLCanvasElement>('canvas[data-testid="particules"]');
if (canvas) animateParticles(canvas);
enhanceMobileMenu();
// Pre-rendered pages are built once: show the visitor's current year, as the hydrated footer does.
for (const year of document.querySelectorAll("[data-current-year]"))
  year.textContent = String(new Date().getFullYear());

/** Imports each island's component and hydrates it alone. */
function hydrateIslands() {
  for (const container of document.querySelectorAll<HTMLElement>(`[${ISLAND_ATTRIBUTE}]`)) {
    const load = ISLANDS[container.getAttribute(ISLAND_ATTRIBUTE) as IslandName];
    if (!load) continue;
    const props = JSON.parse(container.dataset.props ?? "{}") as never;
    load().then(
      (island) => island.mount(container, props),
      (error: unknown) => console.error(error),
    );
  }
}

// After the first frame: the islands' chunks (React DOM: 63 KB gzip) would otherwise be fetched at high
// priority and evaluated before the page is painted (Lighthouse FCP 0.9 → 1.2 s, issue 16).
requestAnimationFrame(() => setTimeout(hydrateIslands, 0));
