import type { IncomingMessage, ServerResponse } from "node:http";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { inlineScriptHashes } from "./csp.ts";
import { cachedPage } from "./page-cache.ts";
import { createPrerenderedResponder } from "./prerendered.ts";

const home = '<!doctype html><html lang="fr"><title>Accueil</title><script>window.a=1</script></html>';
const pc = '<!doctype html><html lang="fr"><title>PC</title><script>window.b=2</script></html>';

async function app() {
  const pages = new Map([
    ["/", await cachedPage(home, { https: false })],
    ["/products/pc", await cachedPage(pc, { https: false })],
  ]);
  const respond = createPrerenderedResponder(pages, {
    "X-Content-Type-Options": "nosniff",
  });
  return (req: IncomingMessage, res: ServerResponse) => {
    if (!respond(req, res)) res.writeHead(418).end("suivant");
  };
}

describe("public pages answered from memory", () => {
  it("serves each page at its path, with and without a trailing slash", async () => {
    const server = await app();
    const res = await request(server).get("/products/pc").set("Accept-Encoding", "identity");
    expect(res.status).toBe(200);
    expect(res.text).toBe(pc);
    expect(res.headers["content-type"]).toMatch(/text\/html/);
    expect((await request(server).get("/products/pc/").set("Accept-Encoding", "identity")).text).toBe(pc);
    expect((await request(server).get("/").set("Accept-Encoding", "identity")).text).toBe(home);
  });

  it("sends the given security headers with the page", async () => {
    const res = await request(await app()).get("/?utm=1");
    expect(res.status).toBe(200);
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
  });

  it("allows exactly the page's own inline scripts in its CSP", async () => {
    const res = await request(await app()).get("/products/pc");
    const [hash] = inlineScriptHashes(pc);
    expect(res.headers["content-security-policy"]).toContain(hash);
    expect(res.headers["content-security-policy"]).not.toContain(inlineScriptHashes(home)[0]);
  });

  it("negotiates brotli and gzip (the client decodes the same document)", async () => {
    const server = await app();
    for (const encoding of ["br", "gzip"]) {
      const res = await request(server).get("/").set("Accept-Encoding", encoding);
      expect(res.headers["content-encoding"]).toBe(encoding);
      expect(res.text).toBe(home);
    }
  });

  it("gives brotli to a browser that lists gzip first with the same weight (Chromium), gzip when br is refused", async () => {
    const server = await app();
    const chromium = await request(server).get("/").set("Accept-Encoding", "gzip, deflate, br, zstd");
    expect(chromium.headers["content-encoding"]).toBe("br");
    const refused = await request(server).get("/").set("Accept-Encoding", "br;q=0, gzip");
    expect(refused.headers["content-encoding"]).toBe("gzip");
  });

  it("answers 304 to a matching If-None-Match", async () => {
    const server = await app();
    const first = await request(server).get("/");
    const etag = first.headers.etag;
    expect(etag).toBeTruthy();
    const second = await request(server).get("/").set("If-None-Match", etag!);
    expect(second.status).toBe(304);
  });

  it("passes unknown paths and non-GET methods to the next handler", async () => {
    const server = await app();
    expect((await request(server).get("/inconnu")).status).toBe(418);
    expect((await request(server).post("/")).status).toBe(418);
  });
});
