/**
 * Issue 39 §1: scripts and styles answered as the build compressed them, with the headers a cache and a
 * browser rely on; nothing compressed per request. Driven over a real `http` server on 127.0.0.1, with a
 * client folder prepared by the build's own step (`scripts/precompress-assets.ts`).
 */
import { mkdtemp, mkdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { precompressAssets } from "../scripts/precompress-assets.ts";
import { ASSET_CACHE_CONTROL, createAssetResponder, PUBLIC_FILE_CACHE_CONTROL, publicFiles } from "./static-files.ts";
import express from "express";

const SCRIPT = `export const message = ${JSON.stringify("Bonjour l'atelier ! ".repeat(400))};\n`;
let dir: string;
let server: Server;
let base: string;
let fallThrough = 0;

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer };

/** One request with exactly `headers` (fetch would add Accept-Encoding and decode the body). */
function get(urlPath: string, headers: Record<string, string> = {}, method = "GET"): Promise<Answer> {
  return new Promise((resolve, reject) => {
    request(`${base}${urlPath}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on("error", reject)
      .end();
  });
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "static-files-"));
  await mkdir(path.join(dir, "assets"));
  await writeFile(path.join(dir, "assets", "entry-Ab12.js"), SCRIPT);
  await writeFile(path.join(dir, "assets", "tiny-Cd34.js"), "export {};\n");
  await writeFile(path.join(dir, "favicon.svg"), `<svg xmlns="http://www.w3.org/2000/svg">${"<g/>".repeat(400)}</svg>`);
  await precompressAssets(dir);
  const assets = createAssetResponder(dir, { "X-Content-Type-Options": "nosniff" });
  const rest = express();
  rest.use(publicFiles(dir));
  rest.use((_req, res) => {
    fallThrough += 1;
    res.status(404).send("introuvable");
  });
  server = createServer((req, res) => {
    if (!assets(req, res)) rest(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

describe("hashed assets (issue 39 §1)", () => {
  it("answers brotli to a browser that accepts it, with the .br file's length and a year's immutable cache", async () => {
    const answer = await get("/assets/entry-Ab12.js", { "Accept-Encoding": "gzip, deflate, br, zstd" });
    expect(answer.status).toBe(200);
    expect(answer.headers["content-encoding"]).toBe("br");
    expect(answer.headers["vary"]).toMatch(/Accept-Encoding/i);
    expect(answer.headers["cache-control"]).toBe(ASSET_CACHE_CONTROL);
    expect(answer.headers["content-type"]).toMatch(/^(text|application)\/javascript/);
    expect(answer.headers["x-content-type-options"]).toBe("nosniff");
    const onDisk = await stat(path.join(dir, "assets", "entry-Ab12.js.br"));
    expect(Number(answer.headers["content-length"])).toBe(onDisk.size);
    expect(brotliDecompressSync(answer.body).toString()).toBe(SCRIPT);
  });

  it("answers gzip when brotli is not accepted, and the file itself when nothing is", async () => {
    const gzipped = await get("/assets/entry-Ab12.js", { "Accept-Encoding": "gzip" });
    expect(gzipped.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gzipped.body).toString()).toBe(SCRIPT);
    const plain = await get("/assets/entry-Ab12.js");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.toString()).toBe(SCRIPT);
    expect(Number(plain.headers["content-length"])).toBe(Buffer.byteLength(SCRIPT));
    // Each encoding is its own representation: a cache must never give one's validator to another.
    const brotli = await get("/assets/entry-Ab12.js", { "Accept-Encoding": "br" });
    expect(new Set([gzipped.headers.etag, plain.headers.etag, brotli.headers.etag]).size).toBe(3);
  });

  it("respects a refused encoding (q=0)", async () => {
    const answer = await get("/assets/entry-Ab12.js", { "Accept-Encoding": "br;q=0, gzip" });
    expect(answer.headers["content-encoding"]).toBe("gzip");
  });

  it("answers 304 to a revalidation with the ETag of the encoding it was given", async () => {
    const first = await get("/assets/entry-Ab12.js", { "Accept-Encoding": "br" });
    const again = await get("/assets/entry-Ab12.js", {
      "Accept-Encoding": "br",
      "If-None-Match": String(first.headers.etag),
    });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers["cache-control"]).toBe(ASSET_CACHE_CONTROL);
  });

  it("answers a range of the representation it sends, and 416 past its end", async () => {
    const whole = await get("/assets/entry-Ab12.js", { "Accept-Encoding": "gzip" });
    const part = await get("/assets/entry-Ab12.js", { "Accept-Encoding": "gzip", Range: "bytes=10-19" });
    expect(part.status).toBe(206);
    expect(part.headers["content-range"]).toBe(`bytes 10-19/${whole.body.length}`);
    expect(part.body).toEqual(whole.body.subarray(10, 20));
    const tail = await get("/assets/entry-Ab12.js", { Range: "bytes=-5" });
    expect(tail.body.toString()).toBe(SCRIPT.slice(-5));
    const past = await get("/assets/entry-Ab12.js", { Range: `bytes=${SCRIPT.length + 10}-` });
    expect(past.status).toBe(416);
  });

  it("sends a small file as it is (no copy was worth making) and HEAD without a body", async () => {
    const tiny = await get("/assets/tiny-Cd34.js", { "Accept-Encoding": "br, gzip" });
    expect(tiny.headers["content-encoding"]).toBeUndefined();
    expect(tiny.body.toString()).toBe("export {};\n");
    const head = await get("/assets/entry-Ab12.js", { "Accept-Encoding": "br" }, "HEAD");
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(Number(head.headers["content-length"])).toBeGreaterThan(0);
  });

  it("hands a missing asset and other methods to the application", async () => {
    const before = fallThrough;
    expect((await get("/assets/absent-Zz99.js")).status).toBe(404);
    expect((await get("/assets/entry-Ab12.js", {}, "POST")).status).toBe(404);
    expect((await get("/assets/../favicon.svg")).status).not.toBe(500);
    expect(fallThrough).toBeGreaterThanOrEqual(before + 2);
  });
});

describe("other public files (issue 39 §1)", () => {
  it("serves the favicon precompressed, cached an hour", async () => {
    const answer = await get("/favicon.svg", { "Accept-Encoding": "br" });
    expect(answer.headers["content-encoding"]).toBe("br");
    expect(answer.headers["cache-control"]).toBe(PUBLIC_FILE_CACHE_CONTROL);
    expect(brotliDecompressSync(answer.body).toString()).toBe(await readFile(path.join(dir, "favicon.svg"), "utf8"));
  });
});

describe("the build step (issue 39 §1)", () => {
  it("removes a copy an earlier build left when the file no longer deserves one", async () => {
    const file = path.join(dir, "assets", "shrunk-Ef56.js");
    await writeFile(file, SCRIPT);
    await precompressAssets(dir);
    await expect(stat(`${file}.br`)).resolves.toBeTruthy();
    await writeFile(file, "export {};\n");
    const report = await precompressAssets(dir);
    await expect(stat(`${file}.br`)).rejects.toThrow();
    await expect(stat(`${file}.gz`)).rejects.toThrow();
    expect(report.files).toBeGreaterThan(0);
    expect(report.brBytes).toBeLessThan(report.bytes);
  });
});
