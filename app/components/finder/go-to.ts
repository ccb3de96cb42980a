/**
 * How the model finder opens a model's page (issue 16): a document load of the pre-rendered page,
 * since the finder runs without React Router on the content pages (docs/decisions/013).
 * In its own module so that unit tests can replace it (jsdom and happy-dom do not navigate).
 */
export function goTo(href: string): void {
  const url = new URL(href, window.location.href);
  window.location.assign(url.href);
  if (url.pathname !== window.location.pathname || url.hash === "") return;
  // Same page (a model of this brand page): the browser has only started a smooth scroll to the card,
  // which a layout change around the finder can leave short of it; scroll again once laid out.
  const card = document.getElementById(decodeURIComponent(url.hash.slice(1)));
  requestAnimationFrame(() => card?.scrollIntoView());
}
