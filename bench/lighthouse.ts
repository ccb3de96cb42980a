/**
 * Lighthouse 13 (mobile preset, Debian's Chromium) on pre-rendered pages: performance,
 * accessibility, best practices and SEO scores (issue 2 target: 100 each on /, /sales, /contact).
 * Runs `npx lighthouse@13.5.0` (fetched from the npm registry on first use).
 * Usage: node bench/lighthouse.ts [/ /sales /contact]
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ensureBuild, freePort, startServer, stop } from "./lib.ts";

const pages = process.argv.slice(2).length ? process.argv.slice(2) : ["/", "/sales", "/contact"];
ensureBuild();
const port = await freePort();
// Canonical URLs point at PUBLIC_URL; serve on the same origin the build was made for.
const server = await startServer(port, { LOG_LEVEL: "warn" });
const out = mkdtempSync(path.join(tmpdir(), "lighthouse-"));
try {
  for (const page of pages) {
    const report = path.join(out, `${page.replace(/\W+/g, "_") || "home"}.json`);
    const result = spawnSync(
      "npx",
      [
        "-y",
        "lighthouse@13.5.0",
        `http://127.0.0.1:${port}${page}`,
        "--quiet",
        "--output=json",
        `--output-path=${report}`,
        "--only-categories=performance,accessibility,best-practices,seo",
        "--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --disable-sync --no-first-run",
      ],
      { env: { ...process.env, CHROME_PATH: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" }, encoding: "utf8" },
    );
    if (result.status !== 0) {
      console.error(`${page}: lighthouse failed\n${result.stderr.slice(-2000)}`);
      continue;
    }
    const json = JSON.parse(readFileSync(report, "utf8")) as {
      categories: Record<string, { score: number | null }>;
      audits: Record<string, { score: number | null; title: string; displayValue?: string }>;
    };
    const scores = Object.entries(json.categories).map(([name, c]) => `${name} ${Math.round((c.score ?? 0) * 100)}`);
    const metrics = [
      "first-contentful-paint",
      "largest-contentful-paint",
      "total-blocking-time",
      "cumulative-layout-shift",
    ]
      .map((id) => `${id.replace(/-/g, " ")} ${json.audits[id]?.displayValue ?? "?"}`)
      .join(", ");
    console.log(`${page}: ${scores.join(" · ")}\n   ${metrics}`);
    const failing = Object.entries(json.audits)
      .filter(([, a]) => a.score !== null && a.score < 0.9)
      .map(([id, a]) => `${id} (${a.displayValue ?? a.score})`);
    if (failing.length) console.log(`   below 0.9: ${failing.join(", ")}`);
  }
} finally {
  await stop(server);
}
