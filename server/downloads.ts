/**
 * Downloads of the desktop support app (issue 15, "Packaging"): `GET /api/downloads` lists the builds
 * (`DownloadsResponse`) and `GET /telechargements/:file` serves them, from our own server only.
 *
 * `npm run build:desktop` (scripts/build-desktop.ts) writes `build/desktop/`: the raw executables,
 * a `.br` and a `.gz` copy of each, and `manifest.json`, rewritten as each target is ready (issue 29:
 * a target is offered as soon as it is built). Only files named in the manifest are served, so no
 * request can reach another file.
 *
 * Issue 29 (docs/decisions/023): the builds know no server address. Each download is the build's file
 * followed by (or, on macOS Apple Silicon, patched near its end with) this server's `PUBLIC_URL`
 * (`download-splice.ts`), so the same build served by two servers gives two apps that each connect to
 * the server they came from. The listed size and SHA-256, and the ETags, are those of the bytes served.
 *
 * The customer saves the raw executable (what they run and what its SHA-256 describes); it travels
 * compressed with `Content-Encoding` when the browser accepts it (brotli saves ~60 % of 110 MB), and
 * the browser decodes it before saving. The file name carries the version, so a year of `immutable`
 * caching is safe (the address is fixed for a server's URL). A Range request (a resumed download) gets
 * the raw bytes, so byte offsets always mean the same bytes. Files are streamed, never read whole.
 *
 * Mounted before `compression()` in server/app.ts: the executables are already compressed once, at
 * build time, at a level too slow for a request.
 */
import { createReadStream, readFileSync, statSync, type Stats } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import express, { type Request, type Response } from "express";
import Negotiator from "negotiator";
import { API_BASE, API_ROUTES } from "#app/remote-support/api-paths.ts";
import type { DevicePlatform, DownloadView, DownloadsResponse } from "#app/remote-support/device-protocol.ts";
import {
  brotliTail,
  gzipTail,
  KEPT_FROM_END,
  servedBuild,
  servedSha256,
  spliceableEnd,
  type AddressPlacement,
  type ServedBuild,
} from "./download-splice.ts";

/** `npm run build:desktop`'s output, used when the app runs without a build folder (development). */
export const DESKTOP_DIR = path.resolve(import.meta.dirname, "..", "build", "desktop");
/** Where the builds are served. */
export const DOWNLOADS_PATH = "/telechargements";
/** The version is in the file name: a new build is a new URL. */
export const DOWNLOAD_CACHE_CONTROL = "public, max-age=31536000, immutable";
/** The encodings the build writes beside each file, best first, with their file suffix. */
export const DOWNLOAD_ENCODINGS = [
  { name: "br", suffix: ".br" },
  { name: "gzip", suffix: ".gz" },
] as const;
export type DownloadEncoding = (typeof DOWNLOAD_ENCODINGS)[number]["name"];

/** One build in `manifest.json`. */
export type DesktopManifestEntry = {
  /** The build target: "linux-x64", "windows-x64", "darwin-arm64", "darwin-x64". */
  target: string;
  platform: DevicePlatform;
  arch: string;
  label: string;
  fileName: string;
  version: string;
  /** Size of the built executable, without any address (the customer's file adds the tail). */
  bytes: number;
  /** Hex SHA-256 of the built executable, without any address. */
  sha256: string;
  /** Size of each precompressed copy (`<fileName>.br`, `.gz`) of the bytes before `address.spliceAt`. */
  transfer: Partial<Record<DownloadEncoding, number>>;
  /** Issue 29: where the server writes its address into the download. */
  address: AddressPlacement;
  /** How long the build took (figures for bench/desktop-size.ts). */
  buildSeconds?: { compile: number; compress: number };
};
export type DesktopManifest = {
  /** ISO 8601. */
  builtAt: string;
  files: DesktopManifestEntry[];
};

const NOT_FOUND =
  '<!doctype html><html lang="fr"><meta charset="utf-8"><title>Fichier introuvable</title>' +
  "<p>Ce fichier n'est pas (ou plus) proposé au téléchargement. " +
  '<a href="/soft-assist">Retour à l\'assistance à distance</a></p></html>';

/**
 * Reads `manifest.json` again whenever it is replaced, so a target built while the server runs is
 * offered at once. A missing or unreadable manifest means "nothing built".
 */
function manifestReader(dir: string): () => DesktopManifest | null {
  const file = path.join(dir, "manifest.json");
  let cached: { key: string; manifest: DesktopManifest | null } | undefined;
  return () => {
    let stats: Stats;
    try {
      stats = statSync(file);
    } catch {
      return null;
    }
    // The build renames a new manifest over the old one after each target: a new inode, even within a tick.
    const key = `${stats.ino}:${stats.mtimeMs}:${stats.size}`;
    if (cached?.key !== key) {
      let manifest: DesktopManifest | null;
      try {
        // A few hundred bytes per build: a synchronous read keeps the reader simple.
        manifest = parseManifest(JSON.parse(readFileSync(file, "utf8")));
      } catch {
        manifest = null;
      }
      cached = { key, manifest };
    }
    return cached.manifest;
  };
}

/** Keeps only well-formed entries whose file name is a plain name (never a path). */
export function parseManifest(value: unknown): DesktopManifest | null {
  if (typeof value !== "object" || value === null || !Array.isArray((value as DesktopManifest).files)) return null;
  const manifest = value as DesktopManifest;
  const files = manifest.files
    .filter(
      (entry) =>
        typeof entry?.fileName === "string" &&
        /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/.test(entry.fileName) &&
        typeof entry.sha256 === "string" &&
        /^[0-9a-f]{64}$/.test(entry.sha256) &&
        Number.isSafeInteger(entry.bytes) &&
        // Builds from before issue 29 carry an address of their own: never served by another server.
        (entry.address?.method === "trailer" || entry.address?.method === "zone") &&
        Number.isSafeInteger(entry.address.spliceAt) &&
        entry.address.spliceAt <= entry.bytes,
    )
    .map((entry) => ({
      ...entry,
      transfer: typeof entry.transfer === "object" && entry.transfer ? entry.transfer : {},
    }));
  return { ...manifest, files };
}

/** What `GET /api/downloads` says of one build, as this server serves it (size and SHA-256 with its address). */
export function downloadView(entry: DesktopManifestEntry, served: { size: number; sha256: string }): DownloadView {
  return {
    platform: entry.platform,
    arch: entry.arch,
    label: entry.label,
    fileName: entry.fileName,
    url: `${DOWNLOADS_PATH}/${encodeURIComponent(entry.fileName)}`,
    version: entry.version,
    bytes: served.size,
    sha256: served.sha256,
  };
}

function sizeOf(file: string): number | null {
  try {
    const stats = statSync(file);
    return stats.isFile() ? stats.size : null;
  } catch {
    return null;
  }
}

/** A single `bytes=a-b` range of a `size`-byte file, or null when absent, multiple or unsatisfiable. */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | null {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? "");
  if (!match || (match[1] === "" && match[2] === "")) return null;
  let start: number;
  let end: number;
  if (match[1] === "") {
    // "bytes=-500": the last 500 bytes.
    start = Math.max(0, size - Number(match[2]));
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  return start <= end && start < size ? { start, end } : null;
}

/** A build as this server serves it: the tail for its address, and the SHA-256 of the whole (once computed). */
type Prepared = ServedBuild & {
  entry: DesktopManifestEntry;
  spliceAt: number;
  sha256: Promise<string>;
  /** The tail as each encoding sends it, made at the first request (3 MB for macOS arm64). */
  encoded: Partial<Record<DownloadEncoding, Buffer>>;
};

/** One part of a response body: a byte range of a file (`end` exclusive), or bytes in memory. */
type Part = { file: string; start: number; end: number } | Buffer;

/** The parts between `start` and `end` (exclusive) of the concatenation of `parts`. */
function sliceParts(parts: readonly Part[], start: number, end: number): Part[] {
  const sliced: Part[] = [];
  let offset = 0;
  for (const part of parts) {
    const length = Buffer.isBuffer(part) ? part.length : part.end - part.start;
    const from = Math.max(start - offset, 0);
    const to = Math.min(end - offset, length);
    if (from < to) {
      sliced.push(
        Buffer.isBuffer(part) ? part.subarray(from, to) : { ...part, start: part.start + from, end: part.start + to },
      );
    }
    offset += length;
  }
  return sliced;
}

async function* streamParts(parts: readonly Part[]): AsyncGenerator<Buffer> {
  for (const part of parts) {
    if (Buffer.isBuffer(part)) yield part;
    else if (part.end > part.start) {
      // Streamed: the executables are ~100 MB.
      for await (const chunk of createReadStream(part.file, { start: part.start, end: part.end - 1 }))
        yield chunk as Buffer;
    }
  }
}

/** The body of one encoding: the copy up to its end marker, then the tail encoded (`download-splice.ts`). */
function encodedParts(name: DownloadEncoding, file: string, size: number, prepared: Prepared): Part[] | null {
  const end = spliceableEnd(name, file, size);
  if (!end) return null;
  // The gzip tail depends on the copy's CRC: a copy replaced under the same build is not expected (the build
  // writes new copies with a new SHA-256, hence a new Prepared), so one encoding per Prepared is enough.
  const tail = (prepared.encoded[name] ??=
    name === "br" ? brotliTail(prepared.tail) : gzipTail(prepared.tail, end.crc, prepared.size));
  return [{ file, start: 0, end: size - KEPT_FROM_END[name] }, tail];
}

function partsSize(parts: readonly Part[]): number {
  return parts.reduce((total, part) => total + (Buffer.isBuffer(part) ? part.length : part.end - part.start), 0);
}

function serveFile(req: Request, res: Response, prepared: Prepared, dir: string): Promise<void> | void {
  const { entry } = prepared;
  const rawFile = path.join(dir, entry.fileName);
  if (sizeOf(rawFile) !== entry.bytes) {
    res.status(404).setHeader("Cache-Control", "no-cache");
    res.type("html").send(NOT_FOUND);
    return;
  }
  res.setHeader("Content-Type", "application/octet-stream");
  res.setHeader("Content-Disposition", `attachment; filename="${entry.fileName}"`);
  res.setHeader("Cache-Control", DOWNLOAD_CACHE_CONTROL);
  res.setHeader("Vary", "Accept-Encoding");
  res.setHeader("Accept-Ranges", "bytes");

  // Issue 29: the build's hash and this server's address, so another address is another validator.
  const rawTag = `"${entry.sha256}-${prepared.tag}"`;
  const rawSize = prepared.size;
  const rawParts: Part[] = [{ file: rawFile, start: 0, end: prepared.spliceAt }, prepared.tail];
  const rangeHeader = req.headers.range;
  const ifRange = req.headers["if-range"];
  // If-Range with another validator (an older build): the whole file, as RFC 9110 §13.1.5 asks.
  const range = rangeHeader && (!ifRange || ifRange === rawTag) ? parseRange(rangeHeader, rawSize) : null;
  // Issue 37 §9: only one well-formed range that the file cannot satisfy gets 416; several ranges (which a
  // download manager may ask) or a malformed header are ignored, and the whole file is sent (RFC 9110 §14.2).
  const singleRange = /^bytes=\d*-\d*$/.test(rangeHeader?.trim() ?? "");
  if (rangeHeader && !range && (!ifRange || ifRange === rawTag) && singleRange) {
    res.setHeader("Content-Range", `bytes */${rawSize}`);
    res.status(416).end();
    return;
  }

  // The browser's preference among the copies that exist; none for a range (offsets are raw bytes).
  let encoding: DownloadEncoding | undefined;
  let parts = rawParts;
  if (!range) {
    const available = DOWNLOAD_ENCODINGS.filter(({ name }) => entry.transfer[name] !== undefined);
    const names = available.map(({ name }) => name);
    // On equal q-values, our order (brotli first) decides.
    // (negotiator 1.1 takes `{ preferred }`; @types/negotiator 0.6 does not know it yet.)
    const negotiator = new Negotiator(req) as unknown as {
      encodings(available: string[], options: { preferred: string[] }): string[];
    };
    const preferred = negotiator.encodings(names, { preferred: names });
    for (const name of preferred) {
      const candidate = available.find((item) => item.name === name);
      const candidateSize = candidate ? sizeOf(rawFile + candidate.suffix) : null;
      const candidateParts =
        candidate && candidateSize !== null
          ? encodedParts(candidate.name, rawFile + candidate.suffix, candidateSize, prepared)
          : null;
      if (candidate && candidateParts) {
        encoding = candidate.name;
        parts = candidateParts;
        break;
      }
      if (name === "identity") break;
    }
  }
  const etag = encoding ? `"${entry.sha256}-${prepared.tag}-${encoding}"` : rawTag;
  res.setHeader("ETag", etag);
  const ifNoneMatch = req.headers["if-none-match"];
  // `*` matches any current representation (RFC 9110 §13.1.2): the file exists, so 304.
  const matches = (tag: string) => tag === "*" || tag.replace(/^W\//, "") === etag;
  if (ifNoneMatch && ifNoneMatch.split(",").some((tag) => matches(tag.trim()))) {
    res.status(304).end();
    return;
  }
  if (encoding) res.setHeader("Content-Encoding", encoding);
  if (range) {
    res.status(206);
    res.setHeader("Content-Range", `bytes ${range.start}-${range.end}/${rawSize}`);
    parts = sliceParts(rawParts, range.start, range.end + 1);
  }
  res.setHeader("Content-Length", String(partsSize(parts)));
  if (req.method === "HEAD") {
    res.end();
    return;
  }
  return pipeline(Readable.from(streamParts(parts)), res).catch(() => {
    // The customer cancelled or lost the connection: nothing to answer any more.
    res.destroy();
  });
}

/** The downloads router alone (`createDownloads`' `router`): tests and benchmarks. */
export function createDownloadsRouter(options: { dir: string; publicUrl: string }): express.Router {
  return createDownloads(options).router;
}

/**
 * The downloads router (`GET|HEAD /telechargements/:file`, `GET /api/downloads`) and `list()`, the same
 * list for the signed-out /soft-assist page's links (issue 40), rendered by the server.
 * @param dir the build folder (`build/desktop`), holding `manifest.json` and the files it names.
 * @param publicUrl this server's address (`PUBLIC_URL`), written into every download (issue 29).
 */
export function createDownloads({ dir, publicUrl }: { dir: string; publicUrl: string }): {
  router: express.Router;
  list(): Promise<DownloadView[]>;
} {
  const readManifest = manifestReader(dir);
  const server = new URL(publicUrl).origin;
  // One entry per build (its SHA-256 changes with every build); this server's address never changes.
  const prepared = new Map<string, Prepared>();
  const prepare = (entry: DesktopManifestEntry): Prepared | null => {
    const key = `${entry.fileName}:${entry.sha256}`;
    const known = prepared.get(key);
    if (known) return known;
    const file = path.join(dir, entry.fileName);
    if (sizeOf(file) !== entry.bytes) return null;
    let made: Prepared;
    try {
      const build = servedBuild(file, entry.bytes, entry.address, server);
      const sha256 = servedSha256(file, entry.address.spliceAt, build.tail);
      // Computed once in the background (~0.3 s for 100 MB); a failure is retried at the next request.
      sha256.catch(() => prepared.delete(key));
      made = { ...build, entry, spliceAt: entry.address.spliceAt, sha256, encoded: {} };
    } catch {
      return null;
    }
    // Older builds' entries go: only the current files are ever served.
    for (const [old, value] of prepared) if (value.entry.fileName === entry.fileName) prepared.delete(old);
    prepared.set(key, made);
    return made;
  };

  const list = async (): Promise<DownloadView[]> => {
    // Only builds whose file is there: a half-deleted folder must not offer a 404.
    const ready = (readManifest()?.files ?? [])
      .filter((entry) => sizeOf(path.join(dir, entry.fileName)) === entry.bytes)
      .flatMap((entry) => prepare(entry) ?? []);
    return Promise.all(
      ready.map(async (item) => downloadView(item.entry, { size: item.size, sha256: await item.sha256 })),
    );
  };

  const router = express.Router();

  router.get(`${API_BASE}${API_ROUTES.downloads}`, async (_req, res, next) => {
    try {
      const downloads = await list();
      res.setHeader("Cache-Control", "no-cache");
      res.json({ downloads } satisfies DownloadsResponse);
    } catch (error) {
      next(error);
    }
  });

  // Express answers HEAD with the GET route; serveFile leaves the body out.
  router.get(`${DOWNLOADS_PATH}/:file`, (req, res) => {
    const name = req.params.file;
    const entry = readManifest()?.files.find((candidate) => candidate.fileName === name);
    const item = entry ? prepare(entry) : null;
    if (!item) {
      res.status(404).setHeader("Cache-Control", "no-cache");
      res.type("html").send(NOT_FOUND);
      return;
    }
    return serveFile(req, res, item, dir);
  });

  return { router, list };
}
