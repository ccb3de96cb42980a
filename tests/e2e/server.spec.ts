/** HTTP-level behaviour of the server (issue 2): headers, health, the public pages' HTML, shutdown, one build at any address (issue 29). */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { PRERENDERED_PATHS } from "#app/config/public-routes.ts";
import { QUEUED_SUBMIT_SCRIPT } from "#app/utils/queued-submit.ts";
import { SERVER_ENTRY, startServerProcess, type ServerProcess } from "#tests/support/server-process.ts";

const root = path.resolve(import.meta.dirname, "../..");

test.describe("server", { tag: "@desktop" }, () => {
  test("answers /healthz", async ({ request }) => {
    const response = await request.get("/healthz");
    expect(response.status()).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
  });

  test("sends security headers on pages", async ({ request }) => {
    for (const url of ["/", "/contact", "/soft-assist", "/soft-assist/nouveau-mot-de-passe"]) {
      const headers = (await request.get(url)).headers();
      expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
      // A page kept in memory (issue 16: content pages; issue 30: /contact, an islands page) has no inline
      // script left; a page rendered per request allows exactly its own by nonce (none on an islands page),
      // and the signed-in area's script that keeps a form sent before hydration by its hash (issue 39 §2).
      const queued = `'sha256-${createHash("sha256").update(QUEUED_SUBMIT_SCRIPT).digest("base64")}'`;
      const scriptSources = /script-src ([^;]*)/.exec(headers["content-security-policy"] ?? "")?.[1] ?? "";
      if (url === "/" || url === "/contact") expect(scriptSources).toBe("'self'");
      else expect(scriptSources.split(" ")).toEqual(["'self'", queued, expect.stringMatching(/^'nonce-[^']+'$/)]);
      expect(headers["x-content-type-options"]).toBe("nosniff");
      expect(headers["strict-transport-security"]).toContain("max-age=");
      expect(headers["x-powered-by"]).toBeUndefined();
    }
  });

  test("compresses responses", async ({ request }) => {
    const response = await request.get("/", { headers: { "Accept-Encoding": "br, gzip" } });
    expect(response.headers()["content-encoding"]).toBe("br");
  });

  test("every public route's HTML carries its content without JavaScript", async ({ request, baseURL }) => {
    const titles = new Set<string>();
    for (const url of PRERENDERED_PATHS) {
      const response = await request.get(url);
      expect(response.status(), url).toBe(200);
      const html = await response.text();
      expect(html, url).toContain('<html lang="fr">');
      expect(html, url).toMatch(/<h1[^>]*>[^<]+/);
      expect(html, url).toMatch(/<meta name="description" content="[^"]{50,}"/);
      const canonical = html.match(/<link rel="canonical" href="([^"]+)"/)?.[1];
      // The server's own PUBLIC_URL, given at start (issue 29), not one from the build.
      expect(canonical, url).toBe(new URL(url, baseURL).href);
      const title = html.match(/<title>([^<]+)<\/title>/)?.[1];
      expect(title, url).toBeTruthy();
      titles.add(title!);
    }
    expect(titles.size).toBe(PRERENDERED_PATHS.length);
  });

  test("a page is readable with JavaScript disabled", async ({ browser, baseURL }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
    const page = await context.newPage();
    await page.goto("/assistance-informatique");
    await expect(page.getByRole("heading", { level: 1, name: "Assistance informatique" })).toBeVisible();
    await context.close();
  });

  test("/dashboard leads to /soft-assist", async ({ request }) => {
    const response = await request.get("/dashboard", { maxRedirects: 0 });
    expect(response.status()).toBe(302);
    expect(response.headers().location).toBe("/soft-assist");
  });

  test("stops cleanly on SIGTERM", async () => {
    // A fresh data folder: the first start creates the embedded database, which takes seconds on a busy CI machine.
    test.setTimeout(90_000);
    const dataDir = mkdtempSync(path.join(tmpdir(), "atelier-e2e-sigterm-"));
    const child = spawn(process.execPath, [SERVER_ENTRY], {
      cwd: root,
      env: { ...process.env, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info", DATA_DIR: dataDir },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    await expect.poll(() => output, { timeout: 60_000 }).toContain("Serveur prêt");
    child.kill("SIGTERM");
    const [code] = await once(child, "exit");
    expect(code).toBe(0);
    expect(output).toContain("arrêté");
    rmSync(dataDir, { recursive: true, force: true, maxRetries: 10 });
  });
});

test.describe("crawlers", { tag: "@desktop" }, () => {
  test("robots.txt points to a sitemap listing every public route", async ({ request, baseURL }) => {
    const robots = await request.get("/robots.txt");
    expect(robots.status()).toBe(200);
    expect(await robots.text()).toContain(`Sitemap: ${baseURL}/sitemap.xml`);
    const sitemap = await request.get("/sitemap.xml");
    expect(sitemap.headers()["content-type"]).toContain("xml");
    const xml = await sitemap.text();
    for (const path of PRERENDERED_PATHS) expect(xml).toContain(`<loc>${new URL(path, baseURL).href}</loc>`);
  });
});

test("a page's file name redirects to its clean URL", { tag: "@desktop" }, async ({ request }) => {
  const response = await request.get("/contact/index.html", { maxRedirects: 0 });
  expect(response.status()).toBe(301);
  expect(response.headers().location).toBe("/contact");
});

/**
 * A digest of the site's build (`build/client`, `build/server`: names and contents): equal digests, same
 * build. The desktop apps (`build/desktop`) are built apart, once per version, and may be written meanwhile.
 */
function buildDigest(): string {
  const hash = createHash("sha256");
  const dir = path.join(root, "build");
  for (const entry of ["client", "server"]
    .flatMap((part) => readdirSync(path.join(dir, part), { withFileTypes: true, recursive: true }))
    .filter((file) => file.isFile())
    .map((file) => path.join(file.parentPath, file.name))
    .sort()) {
    hash.update(path.relative(dir, entry));
    hash.update(readFileSync(entry));
  }
  return hash.digest("hex");
}

test(
  "one build serves two addresses, each with its own canonical links, JSON-LD and sitemap (issue 29)",
  { tag: "@desktop" },
  async () => {
    test.setTimeout(120_000);
    const before = buildDigest();
    const origins = ["https://atelier-nord.example.fr", "https://boutique.example.com:8443"];
    const servers: ServerProcess[] = [];
    const folders = origins.map(() => mkdtempSync(path.join(tmpdir(), "atelier-e2e-address-")));
    try {
      for (const [index, origin] of origins.entries())
        servers.push(await startServerProcess({ PUBLIC_URL: origin, DATA_DIR: folders[index]!, LOG_LEVEL: "warn" }));
      for (const [index, origin] of origins.entries()) {
        const url = servers[index]!.url;
        const brand = await (await fetch(`${url}/services/iphone-repair`)).text();
        expect(brand).toContain(`<link rel="canonical" href="${origin}/services/iphone-repair"/>`);
        expect(brand).toContain(`<meta property="og:url" content="${origin}/services/iphone-repair"/>`);
        const jsonLd = [...brand.matchAll(/<script type="application\/ld\+json"[^>]*>([^<]+)<\/script>/g)];
        expect(jsonLd.length).toBeGreaterThan(0);
        expect(jsonLd.map((match) => match[1]).join("\n")).toContain(`${origin}/`);
        for (const other of origins.filter((candidate) => candidate !== origin)) expect(brand).not.toContain(other);
        expect(await (await fetch(`${url}/sitemap.xml`)).text()).toContain(`<loc>${origin}/repair</loc>`);
      }
    } finally {
      for (const server of servers) await server.stop();
      for (const folder of folders) rmSync(folder, { recursive: true, force: true, maxRetries: 10 });
    }
    expect(buildDigest()).toBe(before);
  },
);
