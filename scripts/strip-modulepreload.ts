/**
 * Removes `<link rel="modulepreload">` from every server-rendered document (`app/entry.server.tsx`; the
 * public pages kept in memory are rendered there too since issue 29).
 *
 * Why: those links ask for the whole JavaScript of the page (~130 KB gzip) at high priority, so on a
 * slow phone connection the first paint waits for them (Lighthouse mobile FCP 2.2 s → 0.7 s without
 * them, see docs/decisions/002). The page's content is already in the HTML; the module script
 * still loads and hydrates the page, only after the first paint instead of before.
 */
const MODULEPRELOAD = /<link rel="modulepreload"[^>]*\/?>/g;

/** The HTML without its modulepreload links. */
export function stripModulepreload(html: string): string {
  return html.replace(MODULEPRELOAD, "");
}
