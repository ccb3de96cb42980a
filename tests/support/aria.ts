/**
 * Headings and links of a part of a page, read from one Playwright ARIA snapshot instead of one locator
 * query each: on a brand page of hundreds of prices, each `getByRole(…, { name })` walks the whole tree,
 * and 30 of them took 10–17 s on 2 loaded cores.
 *
 * Only what assistive technology gets is listed (hidden nodes are not in the snapshot), so "is listed"
 * stands for "is visible to a user" as `toBeVisible` did.
 */
import type { Locator } from "@playwright/test";

export type AriaOutline = {
  /** Accessible names of headings, in document order, with their level (1–6). */
  headings: { name: string; level: number }[];
  /** Accessible names of links with their href as written in the page. */
  links: { name: string; href: string }[];
};

/** A YAML scalar of the snapshot: "double-quoted" (JSON escapes), 'single-quoted' ('' for '), or plain. */
function scalar(text: string): string {
  if (text.startsWith('"')) return JSON.parse(text) as string;
  if (text.startsWith("'") && text.endsWith("'")) return text.slice(1, -1).replaceAll("''", "'");
  return text;
}

/** Parses `locator.ariaSnapshot()` into its headings and links. */
export async function ariaOutline(locator: Locator): Promise<AriaOutline> {
  const lines = (await locator.ariaSnapshot()).split("\n");
  const outline: AriaOutline = { headings: [], links: [] };
  let pendingLink: string | undefined;
  for (const raw of lines) {
    let line = raw.trim().replace(/^- /, "");
    // A whole entry containing ': ' or other YAML specials is itself quoted: '- 'link "A: b"':'.
    if (line.startsWith("'")) line = scalar(line.replace(/:$/, ""));
    const url = /^\/url: (.*)$/.exec(line);
    if (url && pendingLink !== undefined) {
      outline.links.push({ name: pendingLink, href: scalar(url[1]!) });
      pendingLink = undefined;
      continue;
    }
    const node = /^(heading|link) ("(?:[^"\\]|\\.)*")(?: \[level=(\d)\])?/.exec(line);
    if (!node) continue;
    const name = scalar(node[2]!);
    if (node[1] === "heading") outline.headings.push({ name, level: Number(node[3]) });
    else pendingLink = name;
  }
  return outline;
}
