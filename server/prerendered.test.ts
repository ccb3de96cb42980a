import { mkdtemp, mkdir, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compressBoth } from "./compression.ts";
import { inlineScriptHashes } from "./csp.ts";
import { createPrerenderedResponder, loadPrerenderedPages } from "./prerendered.ts";

let dir: string;
const home = '<!doctype html><html lang="fr"><title>Accueil</title><script>window.a=1</script></html>';
const pc = '<!doctype html><html lang="fr"><title>PC</title><script>window.b=2</script></html>';

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "prerendered-"));
  await writeFile(path.join(dir, "index.html"), home);
  await mkdir(path.join(dir, "products", "pc"), { recursive: true });
  await writeFile(path.join(dir, "products", "pc", "index.html"), pc);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function app() {
  const respond = createPrerenderedResponder(await loadPrerenderedPages(dir, { https: false }), {
    "X-Content-Type-Options": "nosniff",
  });
  return (req: IncomingMessage, res: ServerResponse) => {
    if (!respond(req, res)) res.writeHead(418).end("suivant");
  };
}

describe("pre-rendered pages", () => {
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

describe("pre-compressed pages from the build", () => {
  it("serves the build's .br and .gz files when they are newer than the page", async () => {
    const buildDir = await mkdtemp(path.join(tmpdir(), "precompressed-"));
    try {
      await writeFile(path.join(buildDir, "index.html"), home);
      // Different content in the encoded files proves they were read, not recomputed.
      const encoded = await compressBoth(Buffer.from("<p>version compressée</p>"));
      await writeFile(path.join(buildDir, "index.html.br"), encoded.br);
      await writeFile(path.join(buildDir, "index.html.gz"), encoded.gzip);
      const respond = createPrerenderedResponder(await loadPrerenderedPages(buildDir, { https: false }), {});
      const server = (req: IncomingMessage, res: ServerResponse) => void respond(req, res);
      expect((await request(server).get("/").set("Accept-Encoding", "br")).text).toBe("<p>version compressée</p>");
      expect((await request(server).get("/").set("Accept-Encoding", "gzip")).text).toBe("<p>version compressée</p>");

      // A page rebuilt after its encodings: they are stale and ignored.
      const later = new Date(Date.now() + 5_000);
      await utimes(path.join(buildDir, "index.html"), later, later);
      const fresh = createPrerenderedResponder(await loadPrerenderedPages(buildDir, { https: false }), {});
      const server2 = (req: IncomingMessage, res: ServerResponse) => void fresh(req, res);
      expect((await request(server2).get("/").set("Accept-Encoding", "br")).text).toBe(home);
    } finally {
      await rm(buildDir, { recursive: true, force: true });
    }
  });
});
