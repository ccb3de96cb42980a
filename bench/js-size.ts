/**
 * JavaScript shipped by a pre-rendered page, gzip-compressed (issue 2 target for /: ≤ 90 KB).
 * Counts every script and modulepreload the page's HTML references.
 * Usage: node bench/js-size.ts [/ /sales …]
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { ensureBuild, root } from "./lib.ts";

ensureBuild();
const client = path.join(root, "build", "client");
const pages = process.argv.slice(2).length ? process.argv.slice(2) : ["/", "/sales", "/contact"];
for (const page of pages) {
  const html = readFileSync(path.join(client, page, "index.html"), "utf8");
  const files = new Set<string>();
  for (const match of html.matchAll(/<(?:link rel="modulepreload"|script)[^>]*(?:href|src)="(\/assets\/[^"]+\.js)"/g)) files.add(match[1]!);
  for (const match of html.matchAll(/import\("(\/assets\/[^"]+\.js)"\)/g)) files.add(match[1]!);
  let raw = 0;
  let gzip = 0;
  for (const file of files) {
    const content = readFileSync(path.join(client, file));
    raw += content.length;
    gzip += gzipSync(content, { level: 9 }).length;
  }
  const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!).join("");
  console.log(
    `${page}: ${files.size} JS files, ${(raw / 1024).toFixed(1)} KB raw, ${(gzip / 1024).toFixed(1)} KB gzip` +
      ` (+ ${(gzipSync(inline).length / 1024).toFixed(1)} KB gzip of inline scripts in the HTML)`,
  );
}
