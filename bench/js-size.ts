/**
 * JavaScript shipped by a page, gzip-compressed (issue 2 target for /: ≤ 90 KB; issue 3 for a brand page).
 * Loads the page in Debian's Chromium, waits for the network to settle, and sums the gzip -9 size of
 * every JavaScript response (external files) plus the inline scripts of the HTML.
 * Usage: node bench/js-size.ts [--files] [--search <text>] [/ /sales …]
 *   --files          also list every file with its gzip size in KB (issue 16: what each chunk weighs)
 *   --search <text>  then type <text> into the page's model finder and wait for its first result, so
 *                    that the figure includes what the finder loads when used (issue 16)
 */
import { gzipSync } from "node:zlib";
import { chromium } from "@playwright/test";
import { ensureBuild, freePort, startServer, stop } from "./lib.ts";

const args = process.argv.slice(2);
const listFiles = args.includes("--files");
const searchAt = args.indexOf("--search");
const search = searchAt >= 0 ? args[searchAt + 1] : undefined;
const paths = args.filter((arg, i) => arg !== "--files" && i !== searchAt && (searchAt < 0 || i !== searchAt + 1));
const pages = paths.length ? paths : ["/", "/sales", "/contact"];
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
    if (search !== undefined) {
      await page.getByRole("combobox").first().fill(search);
      await page.getByRole("option").first().waitFor();
    }
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
      `${url}${search === undefined ? "" : ` after searching « ${search} »`}: ${files.length} JS files, ${(raw / 1024).toFixed(1)} KB raw, ${(gzip / 1024).toFixed(1)} KB gzip` +
        ` (+ ${(gzipSync(inline).length / 1024).toFixed(1)} KB gzip inline); largest: ${biggest} KB`,
    );
    if (listFiles) {
      for (const f of [...files].sort((a, b) => b.gzip - a.gzip)) {
        console.log(`   ${(f.gzip / 1024).toFixed(1).padStart(5)} KB  ${new URL(f.url).pathname}`);
      }
    }
    await page.close();
  }
} finally {
  await browser.close();
  await stop(server);
}
