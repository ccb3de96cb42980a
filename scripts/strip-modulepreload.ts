/**
 * Build step (react-router.config.ts `buildEnd`): removes `<link rel="modulepreload">` from
 * pre-rendered HTML pages; `app/entry.server.tsx` does the same for server-rendered documents
 * (issue 16: /soft-assist's first view is in its HTML too).
 *
 * Why: those links ask for the whole JavaScript of the page (~130 KB gzip) at high priority, so on a
 * slow phone connection the first paint waits for them (Lighthouse mobile FCP 2.2 s → 0.7 s without
 * them, see docs/decisions/002). The page's content is already in the HTML; the module script
 * still loads and hydrates the page, only after the first paint instead of before.
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";

const MODULEPRELOAD = /<link rel="modulepreload"[^>]*\/?>/g;

/** The HTML without its modulepreload links. */
export function stripModulepreload(html: string): string {
  return html.replace(MODULEPRELOAD, "");
}

/** Rewrites every `index.html` under `dir`; returns how many files changed. */
export async function stripModulepreloadInDir(dir: string): Promise<number> {
  let changed = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || entry.name !== "index.html") continue;
    const file = path.join(entry.parentPath, entry.name);
    const html = await readFile(file, "utf8");
    const stripped = stripModulepreload(html);
    if (stripped !== html) {
      await writeFile(file, stripped);
      changed++;
    }
  }
  return changed;
}
