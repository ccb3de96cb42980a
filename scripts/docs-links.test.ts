/**
 * Issue 39 §3: the README a newcomer reads, and the documentation it points to, stay linked together.
 *
 * For README.md and every Markdown file under docs/ (docs/decisions included), each relative link
 * `[text](target)` (and `![alt](src)`, and reference definitions `[label]: target`) must name a file or folder
 * that exists, relative to the linking file (`/…` relative to the repository). When the link carries an anchor
 * into a Markdown file (`file.md#anchor`, or `#anchor` alone for the same file), the anchor must be one of that
 * file's headings as GitHub names them (github-slugger, the library GitHub's own slugs are modelled on).
 * The Markdown is parsed by remark: what sits in code is not a link. Links to other sites (`https:`,
 * `mailto:`…) are not checked.
 *
 * The README itself must stay short: at most 150 lines, and its first 40 lines (the first screen) hold the
 * two commands and a link to each audience's file, docs/*.md.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import GithubSlugger from "github-slugger";
import type { Definition, Image, Link, Root } from "mdast";
import { toString } from "mdast-util-to-string";
import { remark } from "remark";
import { visit } from "unist-util-visit";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
const DOCS = path.join(ROOT, "docs");
const README = path.join(ROOT, "README.md");
const README_MAX_LINES = 150;
const FIRST_SCREEN_LINES = 40;

interface MarkdownLink {
  readonly target: string;
  readonly line: number;
}

/** Markdown parsed as GitHub reads it (CommonMark: code spans and fenced blocks hold no link). */
function parse(markdown: string): Root {
  return remark().parse(markdown);
}

function markdownFilesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return markdownFilesUnder(full);
    return entry.isFile() && entry.name.endsWith(".md") ? [full] : [];
  });
}

/** Every link and image of a Markdown text, and the targets of its reference definitions. */
function linksOf(markdown: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  visit(parse(markdown), ["link", "image", "definition"], (node) => {
    const { url, position } = node as Link | Image | Definition;
    links.push({ target: url, line: position?.start.line ?? 0 });
  });
  return links;
}

/** Every anchor a Markdown file offers: its headings as GitHub slugs them (repeats numbered), and `<a id>`s. */
function anchorsOf(markdown: string): Set<string> {
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  visit(parse(markdown), "heading", (heading) => void anchors.add(slugger.slug(toString(heading))));
  for (const match of markdown.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) anchors.add(match[1] ?? "");
  return anchors;
}

/** What is wrong with one link of `file`, or undefined when it leads somewhere real. */
function brokenLink(file: string, target: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined;
  const hashAt = target.indexOf("#");
  const pathPart = decodeURIComponent(hashAt === -1 ? target : target.slice(0, hashAt));
  const anchor = hashAt === -1 ? undefined : decodeURIComponent(target.slice(hashAt + 1));
  const destination =
    pathPart === ""
      ? file
      : pathPart.startsWith("/")
        ? path.join(ROOT, pathPart)
        : path.resolve(path.dirname(file), pathPart);
  if (!existsSync(destination)) return `no such file: ${path.relative(ROOT, destination)}`;
  if (anchor === undefined || anchor === "" || !destination.endsWith(".md") || !statSync(destination).isFile()) {
    return undefined;
  }
  if (anchorsOf(readFileSync(destination, "utf8")).has(anchor.toLowerCase())) return undefined;
  return `no heading #${anchor} in ${path.relative(ROOT, destination)}`;
}

const files = [README, ...markdownFilesUnder(DOCS)].sort();

describe("the documentation's links (issue 39 §3)", () => {
  it("finds the README and the audience files", () => {
    expect(files).toContain(README);
    expect(files.filter((file) => path.dirname(file) === DOCS).length).toBeGreaterThan(0);
  });

  it.each(files.map((file) => [path.relative(ROOT, file), file] as const))(
    "every relative link of %s leads to an existing file and heading",
    (_name, file) => {
      const broken = linksOf(readFileSync(file, "utf8")).flatMap(({ target, line }) => {
        const reason = brokenLink(file, target);
        return reason === undefined ? [] : [`line ${line}: (${target}) ${reason}`];
      });
      expect(broken).toEqual([]);
    },
  );
});

describe("the README's first screen (issue 39 §3)", () => {
  const readme = readFileSync(README, "utf8");
  const lines = readme.replace(/\n$/, "").split("\n");
  const firstScreen = lines.slice(0, FIRST_SCREEN_LINES).join("\n");

  it(`is at most ${README_MAX_LINES} lines long`, () => {
    expect(lines.length).toBeLessThanOrEqual(README_MAX_LINES);
  });

  it("shows the two commands", () => {
    expect(firstScreen).toContain("npm ci && npm start");
    expect(firstScreen).toContain("npm ci && npm test");
  });

  it("links to each audience's file in docs/", () => {
    const audienceFiles = readdirSync(DOCS).filter((name) => name.endsWith(".md"));
    expect(audienceFiles.length).toBeGreaterThan(0);
    const linked = linksOf(firstScreen).map(({ target }) => target.split("#")[0]);
    for (const name of audienceFiles) expect(linked, `docs/${name}`).toContain(`docs/${name}`);
  });

  it("counts a heading's anchor as GitHub does, and no link inside code", () => {
    const headings = "## Booking, repair tracking and the bonus réparation\n## The assistant's evaluation\n";
    expect([...anchorsOf(headings)]).toEqual([
      "booking-repair-tracking-and-the-bonus-réparation",
      "the-assistants-evaluation",
    ]);
    expect(anchorsOf("# A\n## Notes\n## Notes\n```\n## Not a heading\n```\n")).toEqual(
      new Set(["a", "notes", "notes-1"]),
    );
    expect(linksOf("`[a](b.md)` and\n\n```\n[c](d.md)\n```\n[e](f.md)")).toEqual([{ target: "f.md", line: 6 }]);
  });
});
