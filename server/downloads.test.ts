/**
 * Issue 15, downloads of the desktop app (`downloads.ts`): only the manifest's files, raw or
 * precompressed as the browser accepts, cached for a year, resumable, never another file.
 * Issue 29 (`download-splice.ts`): the same build served by two servers carries each one's address, as a
 * trailer or (macOS Apple Silicon) in the bundle's zone with the page's signature hash rewritten; the
 * precompressed copies stay valid; sizes, SHA-256, ETags, HEAD and ranges describe the bytes served.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { request as httpRequest, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import compression from "compression";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DownloadsResponse } from "#app/remote-support/device-protocol.ts";
import {
  emptyAddressZone,
  encodeAddressRecord,
  encodeAddressZone,
  readAddressRecord,
} from "#app/remote-support/download-address.ts";
import { COMPRESSION, compressFile } from "../scripts/desktop-compress.ts";
import {
  createDownloads,
  createDownloadsRouter,
  DOWNLOAD_CACHE_CONTROL,
  parseRange,
  type DesktopManifest,
} from "./downloads.ts";

const A = "https://atelier.test";
const B = "http://127.0.0.1:4000";
const RAW = Buffer.from("MZ fake windows executable ".repeat(2_000));
const LINUX = Buffer.from("\x7fELF fake linux executable ".repeat(1_000));
const ZONE = Buffer.from(emptyAddressZone(), "latin1");
// A fake signed Mach-O: the zone on its third page, a "code signature" hash slot near the end.
const MAC = Buffer.concat([Buffer.alloc(9_000, 0x41), ZONE, Buffer.from("after the zone ".repeat(800))]);
const ZONE_AT = 9_000;
const HASH_AT = MAC.length - 64;
const sha = (content: Buffer) => createHash("sha256").update(content).digest("hex");
const WINDOWS_NAME = "atelier-assistance-0.1.0-windows-x64.exe";
const LINUX_NAME = "atelier-assistance-0.1.0-linux-x64";
const MAC_NAME = "atelier-assistance-0.1.0-macos-arm64";

/** What a customer of `server` saves. */
const served = (content: Buffer, server: string) => Buffer.concat([content, encodeAddressRecord(server)]);
function servedMac(server: string): Buffer {
  const file = Buffer.from(MAC);
  file.write(encodeAddressZone(server), ZONE_AT, "latin1");
  createHash("sha256").update(file.subarray(8_192, 12_288)).digest().copy(file, HASH_AT);
  return file;
}

let dir: string;
const servers: Server[] = [];
let urlA: string;
let urlB: string;

function writeManifest(files: DesktopManifest["files"]) {
  writeFileSync(path.join(dir, "manifest.json"), JSON.stringify({ builtAt: new Date().toISOString(), files }));
}

function entry(name: string, target: string, content: Buffer, extra: Partial<DesktopManifest["files"][number]> = {}) {
  return {
    target,
    platform: target.startsWith("darwin")
      ? ("macos" as const)
      : target.startsWith("linux")
        ? ("linux" as const)
        : ("windows" as const),
    arch: "x64",
    label: target,
    fileName: name,
    version: "0.1.0",
    bytes: content.length,
    sha256: sha(content),
    transfer: {},
    address: { method: "trailer" as const, spliceAt: content.length },
    ...extra,
  };
}

async function listen(publicUrl: string): Promise<string> {
  const app = express();
  app.use(createDownloadsRouter({ dir, publicUrl }));
  // As in server/app.ts: compression() comes after and must leave these answers alone.
  app.use(compression());
  app.use((_req, res) => void res.status(418).send("next"));
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The bytes on the wire, not decoded (supertest and fetch would decode them like a browser). */
function get(base: string, url: string, headers: Record<string, string> = {}, method = "GET") {
  return new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const req = httpRequest(`${base}${url}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "downloads-"));
  writeFileSync(path.join(dir, WINDOWS_NAME), RAW);
  writeFileSync(path.join(dir, LINUX_NAME), LINUX); // No compressed copies of this one (--compress none).
  writeFileSync(path.join(dir, MAC_NAME), MAC);
  writeFileSync(path.join(dir, "secret.txt"), "not listed");
  // The build's own compressors (flushed before their end), of the bytes before the splice point.
  const windows = await compressFile(path.join(dir, WINDOWS_NAME), COMPRESSION.fast);
  const mac = await compressFile(path.join(dir, MAC_NAME), COMPRESSION.fast, ZONE_AT);
  const pageHash = { pageOffset: 8_192, pageSize: 4_096, hashOffset: HASH_AT, hashSize: 32, algorithm: "sha256" };
  writeManifest([
    entry(LINUX_NAME, "linux-x64", LINUX),
    entry(WINDOWS_NAME, "windows-x64", RAW, { transfer: windows }),
    entry(MAC_NAME, "darwin-arm64", MAC, {
      transfer: mac,
      address: {
        method: "zone",
        spliceAt: ZONE_AT,
        zone: { offset: ZONE_AT, length: ZONE.length },
        pageHashes: [pageHash],
      },
    }),
  ]);
  [urlA, urlB] = await Promise.all([listen(A), listen(B)]);
});

afterAll(() => {
  for (const server of servers) server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("GET /api/downloads", () => {
  it("lists the builds with the size and SHA-256 of what this server sends", async () => {
    const body = JSON.parse((await get(urlA, "/api/downloads")).body.toString()) as DownloadsResponse;
    expect(body.downloads.map((download) => download.fileName)).toEqual([LINUX_NAME, WINDOWS_NAME, MAC_NAME]);
    expect(body.downloads[1]).toEqual({
      platform: "windows",
      arch: "x64",
      label: "windows-x64",
      fileName: WINDOWS_NAME,
      url: `/telechargements/${WINDOWS_NAME}`,
      version: "0.1.0",
      bytes: served(RAW, A).length,
      sha256: sha(served(RAW, A)),
    });
    expect(body.downloads[2]).toMatchObject({ bytes: MAC.length, sha256: sha(servedMac(A)) });
    const other = JSON.parse((await get(urlB, "/api/downloads")).body.toString()) as DownloadsResponse;
    expect(other.downloads[1]?.sha256).toBe(sha(served(RAW, B)));
  });

  it("is the list the signed-out /soft-assist page links to (issue 40)", async () => {
    const body = JSON.parse((await get(urlA, "/api/downloads")).body.toString()) as DownloadsResponse;
    expect(await createDownloads({ dir, publicUrl: A }).list()).toEqual(body.downloads);
    expect(await createDownloads({ dir: path.join(dir, "absent"), publicUrl: A }).list()).toEqual([]);
  });

  it("is empty when nothing was built", async () => {
    const empty = express().use(createDownloadsRouter({ dir: path.join(dir, "absent"), publicUrl: A }));
    const server = empty.listen(0, "127.0.0.1");
    servers.push(server);
    await new Promise((resolve) => server.once("listening", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    expect(JSON.parse((await get(base, "/api/downloads")).body.toString())).toEqual({ downloads: [] });
  });
});

describe("GET /telechargements/:file", () => {
  it("gives two servers' customers the same build, each with its own server's address", async () => {
    for (const [base, server] of [
      [urlA, A],
      [urlB, B],
    ] as const) {
      const raw = await get(base, `/telechargements/${WINDOWS_NAME}`, { "Accept-Encoding": "identity" });
      expect(raw.body.equals(served(RAW, server))).toBe(true);
      expect(readAddressRecord(raw.body.subarray(-4096))).toEqual({ kind: "found", server });
      expect(raw.headers["etag"]).toMatch(new RegExp(`^"${sha(RAW)}-[0-9a-f]{12}"$`));
    }
    const [a, b] = await Promise.all([urlA, urlB].map((base) => get(base, `/telechargements/${LINUX_NAME}`)));
    expect(a!.body.equals(served(LINUX, A)) && b!.body.equals(served(LINUX, B))).toBe(true);
    expect(a!.headers["etag"]).not.toBe(b!.headers["etag"]);
  });

  it("sends brotli when accepted, as an attachment cached for a year, decoding to the file and its address", async () => {
    const response = await get(urlA, `/telechargements/${WINDOWS_NAME}`, {
      "Accept-Encoding": "gzip, deflate, br, zstd",
    });
    expect(response.status).toBe(200);
    expect(response.headers["content-encoding"]).toBe("br");
    expect(response.headers["cache-control"]).toBe(DOWNLOAD_CACHE_CONTROL);
    expect(response.headers["vary"]).toBe("Accept-Encoding");
    expect(response.headers["content-disposition"]).toBe(`attachment; filename="${WINDOWS_NAME}"`);
    expect(response.headers["content-type"]).toBe("application/octet-stream");
    expect(response.headers["etag"]).toMatch(new RegExp(`^"${sha(RAW)}-[0-9a-f]{12}-br"$`));
    expect(Number(response.headers["content-length"])).toBe(response.body.length);
    expect(response.body.length).toBeLessThan(RAW.length / 10);
    expect(brotliDecompressSync(response.body).equals(served(RAW, A))).toBe(true);
  });

  it("sends gzip when asked, with the CRC and length of the whole", async () => {
    for (const [base, server] of [
      [urlA, A],
      [urlB, B],
    ] as const) {
      const gz = await get(base, `/telechargements/${WINDOWS_NAME}`, { "Accept-Encoding": "gzip" });
      expect(gz.headers["content-encoding"]).toBe("gzip");
      expect(Number(gz.headers["content-length"])).toBe(gz.body.length);
      expect(gunzipSync(gz.body).equals(served(RAW, server))).toBe(true);
    }
  });

  it("macOS Apple Silicon: writes the address into the zone and the page's hash, in every encoding", async () => {
    for (const encoding of ["identity", "br", "gzip"]) {
      const response = await get(urlB, `/telechargements/${MAC_NAME}`, { "Accept-Encoding": encoding });
      expect(Number(response.headers["content-length"])).toBe(response.body.length);
      const body =
        encoding === "br"
          ? brotliDecompressSync(response.body)
          : encoding === "gzip"
            ? gunzipSync(response.body)
            : response.body;
      expect(body.equals(servedMac(B)), encoding).toBe(true);
    }
  });

  it("sends the raw file and its address when no compressed copy exists, untouched by compression()", async () => {
    const response = await get(urlA, `/telechargements/${LINUX_NAME}`, { "Accept-Encoding": "gzip, br" });
    expect(response.headers["content-encoding"]).toBeUndefined();
    expect(response.headers["content-length"]).toBe(String(served(LINUX, A).length));
    expect(response.body.equals(served(LINUX, A))).toBe(true);
  });

  it("answers HEAD, If-None-Match and a resumed download (Range: raw bytes, across the address)", async () => {
    const url = `/telechargements/${WINDOWS_NAME}`;
    const full = await get(urlA, url, { "Accept-Encoding": "br" });
    const head = await get(urlA, url, { "Accept-Encoding": "br" }, "HEAD");
    expect(head.headers["content-length"]).toBe(String(full.body.length));
    expect(head.body.length).toBe(0);
    const etag = full.headers["etag"] as string;
    expect((await get(urlA, url, { "Accept-Encoding": "br", "If-None-Match": etag })).status).toBe(304);
    // The same validator from the other server's build (another address) is not a match.
    expect((await get(urlB, url, { "Accept-Encoding": "br", "If-None-Match": etag })).status).toBe(200);
    const whole = served(RAW, A);
    const part = await get(urlA, url, { "Accept-Encoding": "gzip, br", Range: "bytes=100-199" });
    expect(part.status).toBe(206);
    expect(part.headers["content-encoding"]).toBeUndefined();
    expect(part.headers["content-range"]).toBe(`bytes 100-199/${whole.length}`);
    expect(part.body.equals(whole.subarray(100, 200))).toBe(true);
    const end = await get(urlA, url, { Range: `bytes=${RAW.length - 10}-` });
    expect(end.headers["content-length"]).toBe(String(whole.length - RAW.length + 10));
    expect(end.body.equals(whole.subarray(RAW.length - 10))).toBe(true);
    const inTrailer = await get(urlA, url, { Range: `bytes=${RAW.length + 2}-${RAW.length + 5}` });
    expect(inTrailer.body.equals(whole.subarray(RAW.length + 2, RAW.length + 6))).toBe(true);
    // If-Range naming an older build: the whole (current) file.
    expect((await get(urlA, url, { Range: "bytes=100-199", "If-Range": '"older"' })).status).toBe(200);
    expect((await get(urlA, url, { Range: `bytes=${whole.length}-` })).status).toBe(416);
  });

  it("issue 37 §9: If-None-Match: * is a match (304); several ranges or a malformed one get the whole file", async () => {
    const url = `/telechargements/${WINDOWS_NAME}`;
    expect((await get(urlA, url, { "Accept-Encoding": "br", "If-None-Match": "*" })).status).toBe(304);
    const whole = served(RAW, A);
    for (const range of ["bytes=0-1,5-6", "bytes=0-1, 5-6", "octets=0-1", "bytes=a-b"]) {
      const response = await get(urlA, url, { Range: range });
      expect(response.status, range).toBe(200);
      expect(response.headers["content-range"], range).toBeUndefined();
      expect(response.body.equals(whole), range).toBe(true);
    }
  });

  it("refuses anything the manifest does not name, in French", async () => {
    for (const url of [
      "/telechargements/secret.txt",
      "/telechargements/manifest.json",
      `/telechargements/${WINDOWS_NAME}.br`,
      "/telechargements/..%2fsecret.txt",
      "/telechargements/%2e%2e%2f%2e%2e%2fetc%2fpasswd",
    ]) {
      const response = await get(urlA, url);
      expect(response.status, url).toBe(404);
      expect(response.body.toString(), url).toContain("n'est pas (ou plus) proposé");
    }
  });

  it("sees a new manifest without a restart, and ignores builds from before issue 29", async () => {
    const { address: _address, ...old } = entry(LINUX_NAME, "linux-x64", LINUX);
    writeManifest([old as DesktopManifest["files"][number]]);
    // Same second as the first write on some file systems: move the time on explicitly.
    const later = new Date(Date.now() + 5_000);
    utimesSync(path.join(dir, "manifest.json"), later, later);
    expect((await get(urlA, `/telechargements/${WINDOWS_NAME}`)).status).toBe(404);
    expect((await get(urlA, `/telechargements/${LINUX_NAME}`)).status).toBe(404);
    expect(JSON.parse((await get(urlA, "/api/downloads")).body.toString())).toEqual({ downloads: [] });
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
