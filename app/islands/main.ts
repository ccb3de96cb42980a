/**
 * The only script of the pre-rendered content pages (issue 16, docs/decisions/013), instead of
 * React Router's runtime: a few KB of plain DOM code for what every page does (particles, mobile
 * menu, the footer's current year), and React only where a page has an island (the model finder,
 * the /sales hero video), loaded as a separate chunk and hydrating that component alone.
 * Links are plain `<a href>`: each one loads its pre-rendered page.
 */
import { enhanceMobileMenu } from "#app/components/layout/mobile-menu-dom.ts";
import { animateParticles } from "#app/components/layout/particles.ts";
import { ISLAND_ATTRIBUTE, type IslandName } from "./names.ts";

type IslandModule = { mount(container: HTMLElement, props: never): void };

const ISLANDS: Record<IslandName, () => Promise<IslandModule>> = {
  finder: () => import("./finder-island.tsx"),
  "hero-video": () => import("./hero-video-island.tsx"),
};

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
