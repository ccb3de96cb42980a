/**
 * JavaScript shipped by a page, gzip-compressed (issue 2 target for /: ≤ 90 KB; issue 3 for a brand page).
 * Loads the page in Debian's Chromium, waits for the network to settle, and sums the gzip -9 size of
 * every JavaScript response (external files) plus the inline scripts of the HTML.
 * Usage: node bench/js-size.ts [/ /sales …]
 */
import { gzipSync } from "node:zlib";
import { chromium } from "@playwright/test";
import { ensureBuild, freePort, startServer, stop } from "./lib.ts";

const pages = process.argv.slice(2).length ? process.argv.slice(2) : ["/", "/sales", "/contact"];
ensureBuild();
const port = await freePort();
const server = await startServer(port, { LOG_LEVEL: "warn" });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox"],
});
try {
  for (const url of pages) {
    const page = await browser.newPage();
    const scripts: Promise<{ url: string; raw: number; gzip: number }>[] = [];
    page.on("response", (response) => {
      if (response.request().resourceType() !== "script") return;
      scripts.push(
        response
          .body()
          .then((body) => ({ url: response.url(), raw: body.length, gzip: gzipSync(body, { level: 9 }).length })),
      );
    });
    await page.goto(`http://127.0.0.1:${port}${url}`, { waitUntil: "networkidle" });
    const inline = await page.evaluate(() =>
      [...document.querySelectorAll("script:not([src])")].map((s) => s.textContent ?? "").join(""),
    );
    const files = await Promise.all(scripts);
    const raw = files.reduce((sum, f) => sum + f.raw, 0);
    const gzip = files.reduce((sum, f) => sum + f.gzip, 0);
    const biggest = [...files]
      .sort((a, b) => b.gzip - a.gzip)
      .slice(0, 3)
      .map((f) => `${new URL(f.url).pathname.replace("/assets/", "")} ${(f.gzip / 1024).toFixed(1)}`)
      .join(", ");
    console.log(
      `${url}: ${files.length} JS files, ${(raw / 1024).toFixed(1)} KB raw, ${(gzip / 1024).toFixed(1)} KB gzip` +
        ` (+ ${(gzipSync(inline).length / 1024).toFixed(1)} KB gzip inline); largest: ${biggest} KB`,
    );
    await page.close();
  }
} finally {
  await browser.close();
  await stop(server);
}
