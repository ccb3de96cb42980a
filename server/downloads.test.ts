/**
 * Issue 15, downloads of the desktop app (`downloads.ts`): only the manifest's files, raw or
 * precompressed as the browser accepts, cached for a year, resumable, never another file.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliCompressSync, gzipSync } from "node:zlib";
import compression from "compression";
import express from "express";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DownloadsResponse } from "#app/remote-support/device-protocol.ts";
import { createDownloadsRouter, DOWNLOAD_CACHE_CONTROL, parseRange, type DesktopManifest } from "./downloads.ts";

const RAW = Buffer.from("MZ fake windows executable ".repeat(2_000));
const LINUX = Buffer.from("\x7fELF fake linux executable ".repeat(1_000));
const sha = (content: Buffer) => createHash("sha256").update(content).digest("hex");
const WINDOWS_NAME = "atelier-assistance-0.1.0-windows-x64.exe";
const LINUX_NAME = "atelier-assistance-0.1.0-linux-x64";

let dir: string;
let app: express.Express;

function writeManifest(files: DesktopManifest["files"]) {
  const manifest: DesktopManifest = { builtAt: new Date().toISOString(), serverUrl: "https://atelier.test", files };
  writeFileSync(path.join(dir, "manifest.json"), JSON.stringify(manifest));
}

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "downloads-"));
  writeFileSync(path.join(dir, WINDOWS_NAME), RAW);
  writeFileSync(path.join(dir, `${WINDOWS_NAME}.br`), brotliCompressSync(RAW));
  writeFileSync(path.join(dir, `${WINDOWS_NAME}.gz`), gzipSync(RAW));
  // No compressed copies of this one (built with --compress none).
  writeFileSync(path.join(dir, LINUX_NAME), LINUX);
  writeFileSync(path.join(dir, "secret.txt"), "not listed");
  writeManifest([
    {
      target: "linux-x64",
      platform: "linux",
      arch: "x64",
      label: "Linux (64 bits)",
      fileName: LINUX_NAME,
      version: "0.1.0",
      bytes: LINUX.length,
      sha256: sha(LINUX),
      transfer: {},
    },
    {
      target: "windows-x64",
      platform: "windows",
      arch: "x64",
      label: "Windows (64 bits)",
      fileName: WINDOWS_NAME,
      version: "0.1.0",
      bytes: RAW.length,
      sha256: sha(RAW),
      transfer: { br: brotliCompressSync(RAW).length, gzip: gzipSync(RAW).length },
    },
  ]);
  app = express();
  app.use(createDownloadsRouter({ dir }));
  // As in server/app.ts: compression() comes after and must leave these answers alone.
  app.use(compression());
  app.use((_req, res) => void res.status(418).send("next"));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("GET /api/downloads", () => {
  it("lists the manifest's builds with their URL, size and SHA-256", async () => {
    const response = await request(app).get("/api/downloads").expect(200);
    const body = response.body as DownloadsResponse;
    expect(body.downloads.map((download) => download.label)).toEqual(["Linux (64 bits)", "Windows (64 bits)"]);
    expect(body.downloads[1]).toEqual({
      platform: "windows",
      arch: "x64",
      label: "Windows (64 bits)",
      fileName: WINDOWS_NAME,
      url: `/telechargements/${WINDOWS_NAME}`,
      version: "0.1.0",
      bytes: RAW.length,
      sha256: sha(RAW),
    });
  });

  it("is empty when nothing was built", async () => {
    const empty = express().use(createDownloadsRouter({ dir: path.join(dir, "absent") }));
    expect((await request(empty).get("/api/downloads").expect(200)).body).toEqual({ downloads: [] });
  });
});

describe("GET /telechargements/:file", () => {
  it("sends brotli when accepted, as an attachment cached for a year", async () => {
    const response = await request(app)
      .get(`/telechargements/${WINDOWS_NAME}`)
      .set("Accept-Encoding", "gzip, deflate, br, zstd")
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect(response.headers["content-encoding"]).toBe("br");
    expect(response.headers["cache-control"]).toBe(DOWNLOAD_CACHE_CONTROL);
    expect(response.headers["vary"]).toBe("Accept-Encoding");
    expect(response.headers["content-disposition"]).toBe(`attachment; filename="${WINDOWS_NAME}"`);
    expect(response.headers["content-type"]).toBe("application/octet-stream");
    expect(response.headers["etag"]).toBe(`"${sha(RAW)}-br"`);
    expect(Number(response.headers["content-length"])).toBeLessThan(RAW.length / 10);
    // supertest decodes brotli like a browser: what is saved is the executable itself.
    expect((response.body as Buffer).equals(RAW)).toBe(true);
  });

  it("sends gzip, or the raw file, by what the browser accepts", async () => {
    const gz = await request(app).get(`/telechargements/${WINDOWS_NAME}`).set("Accept-Encoding", "gzip").expect(200);
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect((gz.body as Buffer).equals(RAW)).toBe(true);
    const raw = await request(app)
      .get(`/telechargements/${WINDOWS_NAME}`)
      .set("Accept-Encoding", "identity")
      .responseType("blob")
      .expect(200);
    expect(raw.headers["content-encoding"]).toBeUndefined();
    expect(raw.headers["content-length"]).toBe(String(RAW.length));
    expect(raw.headers["etag"]).toBe(`"${sha(RAW)}"`);
    expect((raw.body as Buffer).equals(RAW)).toBe(true);
  });

  it("sends the raw file when no compressed copy exists, untouched by compression()", async () => {
    const response = await request(app)
      .get(`/telechargements/${LINUX_NAME}`)
      .set("Accept-Encoding", "gzip, br")
      .responseType("blob")
      .expect(200);
    expect(response.headers["content-encoding"]).toBeUndefined();
    expect((response.body as Buffer).equals(LINUX)).toBe(true);
  });

  it("answers HEAD, If-None-Match and a resumed download (Range: raw bytes)", async () => {
    const head = await request(app).head(`/telechargements/${WINDOWS_NAME}`).set("Accept-Encoding", "br").expect(200);
    expect(head.headers["content-encoding"]).toBe("br");
    expect(Number(head.headers["content-length"])).toBeGreaterThan(0);
    await request(app)
      .get(`/telechargements/${WINDOWS_NAME}`)
      .set("Accept-Encoding", "br")
      .set("If-None-Match", `"${sha(RAW)}-br"`)
      .expect(304);
    const part = await request(app)
      .get(`/telechargements/${WINDOWS_NAME}`)
      .set("Accept-Encoding", "gzip, br")
      .set("Range", "bytes=100-199")
      .responseType("blob")
      .expect(206);
    expect(part.headers["content-encoding"]).toBeUndefined();
    expect(part.headers["content-range"]).toBe(`bytes 100-199/${RAW.length}`);
    expect((part.body as Buffer).equals(RAW.subarray(100, 200))).toBe(true);
    // If-Range naming an older build: the whole (current) file.
    await request(app)
      .get(`/telechargements/${WINDOWS_NAME}`)
      .set("Range", "bytes=100-199")
      .set("If-Range", '"older"')
      .expect(200);
    await request(app).get(`/telechargements/${WINDOWS_NAME}`).set("Range", `bytes=${RAW.length}-`).expect(416);
  });

  it("refuses anything the manifest does not name, in French", async () => {
    for (const url of [
      "/telechargements/secret.txt",
      "/telechargements/manifest.json",
      `/telechargements/${WINDOWS_NAME}.br`,
      "/telechargements/..%2fsecret.txt",
      "/telechargements/%2e%2e%2f%2e%2e%2fetc%2fpasswd",
    ]) {
      const response = await request(app).get(url);
      expect(response.status, url).toBe(404);
      expect(response.text, url).toContain("n'est pas (ou plus) proposé");
    }
    // Paths with a real slash are not this route's at all.
    expect((await request(app).get("/telechargements/../secret.txt")).text).not.toContain("not listed");
  });

  it("sees a new manifest without a restart", async () => {
    writeManifest([]);
    // Same second as the first write on some file systems: move the time on explicitly.
    const later = new Date(Date.now() + 5_000);
    utimesSync(path.join(dir, "manifest.json"), later, later);
    await request(app).get(`/telechargements/${WINDOWS_NAME}`).expect(404);
    expect((await request(app).get("/api/downloads")).body).toEqual({ downloads: [] });
  });
});

describe("parseRange", () => {
  it("reads one range and refuses the rest", () => {
    expect(parseRange("bytes=0-9", 100)).toEqual({ start: 0, end: 9 });
    expect(parseRange("bytes=90-", 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange("bytes=-10", 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange("bytes=50-500", 100)).toEqual({ start: 50, end: 99 });
    expect(parseRange("bytes=100-", 100)).toBeNull();
    expect(parseRange("bytes=0-1,5-6", 100)).toBeNull();
    expect(parseRange("items=0-1", 100)).toBeNull();
  });
});
