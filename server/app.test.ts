/**
 * The request handler on the production build (issue 13 §2, §12b, §12c): no
 * answer redirects off the site, whatever the path, every answer carries the
 * Permissions-Policy header, and documents allow their inlined stylesheet by
 * hash, without 'unsafe-inline'. An unreadable Host or path gets a French 400 page.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRequest, startAppServer, type AppServer } from "#tests/support/app-server.ts";
import { PRERENDERED_PATHS } from "#app/config/public-routes.ts";
import { inlineStyleHashes } from "./csp.ts";
import { PERMISSIONS_POLICY } from "./security.ts";

let server: AppServer;
beforeAll(async () => {
  server = await startAppServer();
});
afterAll(async () => {
  await server?.close();
});

/** Where a browser on our site would go with this Location (its origin compared by the caller). */
const resolved = (location: string) => new URL(location, server.url);

describe("redirects stay on the site (issue 13 §2)", () => {
  // Paths as an attacker writes them in a link: browsers read `\` as `/`, and `//host` as another site.
  const HOSTILE_PATHS = [
    "//evil.com/index.html",
    "/\\evil.com/index.html",
    "/\\/evil.com/index.html",
    "\\\\evil.com/index.html",
    "/%2F%2Fevil.com/index.html",
    "/%2f/evil.com/index.html",
    "/%5Cevil.com/index.html",
    "/%5C%5Cevil.com/index.html",
    "///evil.com/index.html.br",
    "//evil.com/index.html.gz",
    "//evil.com/contact/index.html",
    "//evil.com/%2E%2E/contact/index.html",
    "/./\\evil.com/index.html",
    "//evil.com",
    "//evil.com/",
    "/\\evil.com",
    "//evil.com/contact",
    "//evil.com/assets/",
    "//evil.com/soft-assist",
    "/%09/evil.com/index.html",
    "//evil.com@evil.com/index.html",
    "/http://evil.com/index.html",
    "/https:evil.com/index.html",
  ];

  it.each(HOSTILE_PATHS)("GET %s redirects, if at all, to a path of this site", async (path) => {
    for (const method of ["GET", "HEAD"]) {
      const answer = await rawRequest(server.url, path, { method });
      expect(answer.status, `${method} ${path}`).toBeLessThan(500);
      const location = answer.headers.location;
      if (location !== undefined) {
        expect(resolved(location).origin, `${method} ${path} → ${location}`).toBe(server.url);
      }
    }
  });

  it("keeps better-auth's reset-link redirect on the site, whatever callbackURL says", async () => {
    const callbacks = [
      "//evil.com/",
      "/\\evil.com",
      "\\\\evil.com",
      "/%2F/evil.com",
      "http://evil.com/",
      "https:evil.com",
      "/\t/evil.com",
    ];
    for (const callback of callbacks) {
      const path = `/api/auth/reset-password/jeton-inconnu?callbackURL=${encodeURIComponent(callback)}`;
      const answer = await rawRequest(server.url, path);
      expect(answer.status, callback).toBeLessThan(500);
      const location = answer.headers.location;
      if (location !== undefined) expect(resolved(location).origin, `${callback} → ${location}`).toBe(server.url);
    }
    // The site's own page is still where a valid link lands (here with the error of an unknown token).
    const own = await rawRequest(
      server.url,
      `/api/auth/reset-password/jeton-inconnu?callbackURL=${encodeURIComponent("/soft-assist/nouveau-mot-de-passe")}`,
    );
    expect(own.status).toBe(302);
    expect(resolved(own.headers.location!).pathname).toBe("/soft-assist/nouveau-mot-de-passe");
  });

  it("still sends the pre-rendered files' paths to their clean URLs", async () => {
    const cases: [string, string][] = [
      ["/index.html", "/"],
      ["/index.html.br", "/"],
      ["/contact/index.html", "/contact"],
      ["/contact/index.html.gz", "/contact"],
    ];
    for (const [path, target] of cases) {
      const answer = await rawRequest(server.url, path);
      expect([answer.status, answer.headers.location], path).toEqual([301, target]);
    }
  });

  it("sends an unknown path to the home page, on this site", async () => {
    const answer = await rawRequest(server.url, "/pas-une-page/index.html");
    expect(answer.status).toBe(302);
    expect(resolved(answer.headers.location!).href).toBe(`${server.url}/`);
  });
});

describe("Permissions-Policy (issue 13 §12b)", () => {
  it("is sent with pre-rendered pages, other documents, redirects and API answers", async () => {
    const answers = {
      "pre-rendered page /": await rawRequest(server.url, "/"),
      "pre-rendered page /contact (304)": await rawRequest(server.url, "/contact", {
        headers: { "If-None-Match": (await rawRequest(server.url, "/contact")).headers.etag ?? "" },
      }),
      "client-rendered /soft-assist": await rawRequest(server.url, "/soft-assist"),
      "redirect of an unknown path": await rawRequest(server.url, "/inconnue"),
      "GET /api/me (401)": await rawRequest(server.url, "/api/me"),
      "POST /api/contact (400)": await rawRequest(server.url, "/api/contact", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: "{}",
      }),
      "/healthz": await rawRequest(server.url, "/healthz"),
    };
    expect(Object.fromEntries(Object.entries(answers).map(([name, answer]) => [name, answer.status]))).toEqual({
      "pre-rendered page /": 200,
      "pre-rendered page /contact (304)": 304,
      "client-rendered /soft-assist": 200,
      "redirect of an unknown path": 302,
      "GET /api/me (401)": 401,
      "POST /api/contact (400)": 400,
      "/healthz": 200,
    });
    for (const [name, answer] of Object.entries(answers)) {
      expect(answer.headers["permissions-policy"], name).toBe(PERMISSIONS_POLICY);
    }
  });

  it("denies camera, microphone, geolocation, payment and USB, and keeps screen capture and full screen for the site", () => {
    const policy = new Map(PERMISSIONS_POLICY.split(", ").map((item) => item.split("=") as [string, string]));
    for (const feature of ["camera", "microphone", "geolocation", "payment", "usb", "serial", "hid"]) {
      expect(policy.get(feature), feature).toBe("()");
    }
    expect(policy.get("display-capture")).toBe("(self)");
    expect(policy.get("fullscreen")).toBe("(self)");
  });
});

describe("styles without 'unsafe-inline' (issue 13 §12c)", () => {
  /** The style-src sources of a CSP header. */
  const styleSources = (csp: string | undefined) =>
    (csp ?? "")
      .split(";")
      .map((directive) => directive.trim().split(/\s+/))
      .find(([name]) => name === "style-src")
      ?.slice(1) ?? [];

  it("allows each document's own inlined stylesheet by its hash, and no style attribute is needed", async () => {
    const paths = [...PRERENDERED_PATHS, "/soft-assist", "/soft-assist/nouveau-mot-de-passe"];
    for (const path of paths) {
      const answer = await rawRequest(server.url, path);
      expect(answer.status, path).toBe(200);
      const sources = styleSources(answer.headers["content-security-policy"] as string | undefined);
      expect(sources, path).not.toContain("'unsafe-inline'");
      const hashes = inlineStyleHashes(answer.body);
      expect(hashes.length, path).toBeGreaterThan(0);
      for (const hash of hashes) expect(sources, path).toContain(hash);
      expect(answer.body, path).not.toMatch(/<[a-z][^>]*\sstyle=/i);
    }
  });
});

describe("unreadable requests get a French 400 page, never a 5xx nor English", () => {
  it("answers 400 to a Host header no URL can hold, on a page React Router renders", async () => {
    for (const host of ["x:99999", "a b", "["]) {
      const answer = await rawRequest(server.url, "/suivi", { headers: { Host: host } });
      expect([answer.status, host]).toEqual([400, host]);
      expect(answer.body).toContain("mal formée");
    }
  });

  it("answers 400 to a path that is not percent-decodable, in French", async () => {
    const answer = await rawRequest(server.url, "/%E0%A4%A");
    expect(answer.status).toBe(400);
    expect(answer.body).toContain('lang="fr"');
    expect(answer.body).not.toContain("URI malformed");
  });
});
