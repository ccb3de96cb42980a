/**
 * Downloads of the desktop support app (issue 15, "Packaging"): `GET /api/downloads` lists the builds
 * (`DownloadsResponse`) and `GET /telechargements/:file` serves them, from our own server only.
 *
 * `npm run build:desktop` (scripts/build-desktop.ts) writes `build/desktop/`: the raw executables,
 * a `.br` and a `.gz` copy of each, and `manifest.json`. Only files named in the manifest are served,
 * so no request can reach another file. The customer saves the raw executable (what they run and
 * what its SHA-256 describes); it travels compressed with `Content-Encoding` when the browser accepts
 * it (brotli saves ~60 % of 110 MB), and the browser decodes it before saving. The file name carries
 * the version, so a year of `immutable` caching is safe. A Range request (a resumed download) gets
 * the raw file, so byte offsets always mean the same bytes.
 *
 * Mounted before `compression()` in server/app.ts: the executables are already compressed once, at
 * build time, at a level too slow for a request.
 */
import { createReadStream, readFileSync, statSync, type Stats } from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import express, { type Request, type Response } from "express";
import Negotiator from "negotiator";
import { API_BASE, API_ROUTES } from "#app/remote-support/api-paths.ts";
import type { DevicePlatform, DownloadView, DownloadsResponse } from "#app/remote-support/device-protocol.ts";

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
  /** Size of the raw executable (what the customer saves). */
  bytes: number;
  /** Hex SHA-256 of the raw executable. */
  sha256: string;
  /** Size of each precompressed copy (`<fileName>.br`, `.gz`): what travels. */
  transfer: Partial<Record<DownloadEncoding, number>>;
  /** How long the build took (figures for bench/desktop-size.ts). */
  buildSeconds?: { compile: number; compress: number };
};
export type DesktopManifest = {
  /** ISO 8601. */
  builtAt: string;
  /** The server address built into the executables (`__ATELIER_SERVER_URL__`). */
  serverUrl: string;
  files: DesktopManifestEntry[];
};

const NOT_FOUND =
  '<!doctype html><html lang="fr"><meta charset="utf-8"><title>Fichier introuvable</title>' +
  "<p>Ce fichier n'est pas (ou plus) proposé au téléchargement. " +
  '<a href="/soft-assist">Retour à l\'assistance à distance</a></p></html>';

/**
 * Reads `manifest.json` again whenever its modification time changes, so a build made while the
 * server runs is offered at once. A missing or unreadable manifest means "nothing built".
 */
function manifestReader(dir: string): () => DesktopManifest | null {
  const file = path.join(dir, "manifest.json");
  let cached: { mtimeMs: number; manifest: DesktopManifest | null } | undefined;
  return () => {
    let stats: Stats;
    try {
      stats = statSync(file);
    } catch {
      return null;
    }
    if (cached?.mtimeMs !== stats.mtimeMs) {
      let manifest: DesktopManifest | null;
      try {
        // A few hundred bytes per build: a synchronous read keeps the reader simple.
        manifest = parseManifest(JSON.parse(readFileSync(file, "utf8")));
      } catch {
        manifest = null;
      }
      cached = { mtimeMs: stats.mtimeMs, manifest };
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
        Number.isSafeInteger(entry.bytes),
    )
    .map((entry) => ({
      ...entry,
      transfer: typeof entry.transfer === "object" && entry.transfer ? entry.transfer : {},
    }));
  return { ...manifest, files };
}

/** What `GET /api/downloads` says of one build. */
export function downloadView(entry: DesktopManifestEntry): DownloadView {
  return {
    platform: entry.platform,
    arch: entry.arch,
    label: entry.label,
    fileName: entry.fileName,
    url: `${DOWNLOADS_PATH}/${encodeURIComponent(entry.fileName)}`,
    version: entry.version,
    bytes: entry.bytes,
    sha256: entry.sha256,
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

function serveFile(req: Request, res: Response, entry: DesktopManifestEntry, dir: string): Promise<void> | void {
  const rawFile = path.join(dir, entry.fileName);
  const rawSize = sizeOf(rawFile);
  if (rawSize === null) {
    res.status(404).setHeader("Cache-Control", "no-cache");
    res.type("html").send(NOT_FOUND);
    return;
  }
  res.setHeader("Content-Type", "application/octet-stream");
  res.setHeader("Content-Disposition", `attachment; filename="${entry.fileName}"`);
  res.setHeader("Cache-Control", DOWNLOAD_CACHE_CONTROL);
  res.setHeader("Vary", "Accept-Encoding");
  res.setHeader("Accept-Ranges", "bytes");

  const rawTag = `"${entry.sha256}"`;
  const rangeHeader = req.headers.range;
  const ifRange = req.headers["if-range"];
  // If-Range with another validator (an older build): the whole file, as RFC 9110 §13.1.5 asks.
  const range = rangeHeader && (!ifRange || ifRange === rawTag) ? parseRange(rangeHeader, rawSize) : null;
  if (rangeHeader && !range && (!ifRange || ifRange === rawTag) && /^bytes=/.test(rangeHeader)) {
    res.setHeader("Content-Range", `bytes */${rawSize}`);
    res.status(416).end();
    return;
  }

  // The browser's preference among the copies that exist; none for a range (offsets are raw bytes).
  let encoding: (typeof DOWNLOAD_ENCODINGS)[number] | undefined;
  let file = rawFile;
  let size = rawSize;
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
      if (candidate && candidateSize !== null) {
        encoding = candidate;
        file = rawFile + candidate.suffix;
        size = candidateSize;
        break;
      }
      if (name === "identity") break;
    }
  }
  const etag = encoding ? `"${entry.sha256}-${encoding.name}"` : rawTag;
  res.setHeader("ETag", etag);
  const ifNoneMatch = req.headers["if-none-match"];
  if (ifNoneMatch && ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag)) {
    res.status(304).end();
    return;
  }
  if (encoding) res.setHeader("Content-Encoding", encoding.name);
  if (range) {
    res.status(206);
    res.setHeader("Content-Range", `bytes ${range.start}-${range.end}/${rawSize}`);
    res.setHeader("Content-Length", String(range.end - range.start + 1));
  } else {
    res.setHeader("Content-Length", String(size));
  }
  if (req.method === "HEAD") {
    res.end();
    return;
  }
  const stream = createReadStream(file, range ?? {});
  return pipeline(stream, res).catch(() => {
    // The customer cancelled or lost the connection: nothing to answer any more.
    res.destroy();
  });
}

/**
 * The downloads router: `GET|HEAD /telechargements/:file` and `GET /api/downloads`.
 * @param dir the build folder (`build/desktop`), holding `manifest.json` and the files it names.
 */
export function createDownloadsRouter({ dir }: { dir: string }): express.Router {
  const readManifest = manifestReader(dir);
  const router = express.Router();

  router.get(`${API_BASE}${API_ROUTES.downloads}`, (_req, res) => {
    const manifest = readManifest();
    // Only builds whose file is there: a half-deleted folder must not offer a 404.
    const downloads = (manifest?.files ?? [])
      .filter((entry) => sizeOf(path.join(dir, entry.fileName)) !== null)
      .map(downloadView);
    res.setHeader("Cache-Control", "no-cache");
    res.json({ downloads } satisfies DownloadsResponse);
  });

  // Express answers HEAD with the GET route; serveFile leaves the body out.
  router.get(`${DOWNLOADS_PATH}/:file`, (req, res) => {
    const name = req.params.file;
    const entry = readManifest()?.files.find((candidate) => candidate.fileName === name);
    if (!entry) {
      res.status(404).setHeader("Cache-Control", "no-cache");
      res.type("html").send(NOT_FOUND);
      return;
    }
    return serveFile(req, res, entry, dir);
  });

  return router;
}
