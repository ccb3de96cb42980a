/**
 * The build's static files as the build compressed them (issue 39 §1): `scripts/precompress-assets.ts`
 * writes `<file>.br` and `<file>.gz` beside each script, style, SVG or manifest, and these handlers answer
 * with the encoding the browser prefers among them (`Content-Encoding`, `Vary: Accept-Encoding`, each
 * encoding's own `Content-Length` and `ETag`), ranges and revalidations (304) included. Nothing known at
 * build time is compressed per request.
 *
 * Hashed assets (`/assets/…`: a new name for new content, about 1.5 MB with their copies) are read once at
 * start and answered from memory before Express, as the public pages are (`prerendered.ts`): served from
 * disk through `express-static-gzip` they reached 5 600 requests/s where nginx's `gzip_static` reached
 * 65 000 (`node bench/throughput.ts`). Other public files (favicon, pictures, video: large, replaced in
 * place) are streamed from disk by `express-static-gzip` over `serve-static`, and cached an hour.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import type { RequestHandler } from "express";
import expressStaticGzip from "express-static-gzip";
import { contentType } from "mime-types";
import parseRange from "range-parser";
import { negotiateEncoding, type StoredEncoding as Encoding } from "./encoding-negotiation.ts";
import type { HeaderSet } from "./prerendered.ts";

/** Hashed build assets never change: a year. */
export const ASSET_CACHE_CONTROL = "public, max-age=31536000, immutable";
/** Other public files (images, video, favicon) may be replaced: an hour. */
export const PUBLIC_FILE_CACHE_CONTROL = "public, max-age=3600";
/** Where the hashed assets are served. */
export const ASSETS_PATH = "/assets/";

/** Brotli first (≈ 10 % smaller than gzip on our scripts), then gzip, then the file as it is. */
const PRECOMPRESSED = { enableBrotli: true, orderPreference: ["br", "gzip"], index: false };

/** One encoding of an asset: its bytes and its strong ETag. */
type Representation = { body: Buffer; etag: string };
/** One asset in memory: its type and the encodings the build made (identity always). */
type Asset = { type: string; encodings: Partial<Record<Encoding, Representation>> & { identity: Representation } };

const SUFFIXES: Record<Exclude<Encoding, "identity">, string> = { br: ".br", gzip: ".gz" };

function representation(body: Buffer): Representation {
  return { body, etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"` };
}

/** Every file under `dir` (recursively) with its `.br`/`.gz` copies, keyed by its URL path under `/assets/`. */
export function loadAssets(dir: string): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  const names = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
  const present = new Set(names);
  for (const name of names) {
    if (name.endsWith(".br") || name.endsWith(".gz")) continue;
    const read = (file: string) => representation(readFileSync(path.join(dir, file)));
    const encodings: Asset["encodings"] = { identity: read(name) };
    for (const [encoding, suffix] of Object.entries(SUFFIXES) as [Exclude<Encoding, "identity">, string][]) {
      if (present.has(name + suffix)) encodings[encoding] = read(name + suffix);
    }
    const type = contentType(path.extname(name)) || "application/octet-stream";
    assets.set(ASSETS_PATH + name.split(path.sep).join("/"), { type, encodings });
  }
  return assets;
}

/**
 * A raw `http` handler for GET and HEAD under `/assets/`, run before the site's Express application: these
 * files need neither a CSP nonce, nor request logging, nor a session, only `headers` (helmet's, captured
 * at start). Answers from memory (`loadAssets(clientDir/assets)`): 200, 206 for one satisfiable range of
 * the chosen encoding (several ranges: the whole file, as HTTP allows), 416 past its end, 304 when
 * `If-None-Match` names its ETag. Returns false for any other request or an unknown asset (the
 * application then answers its French 404 page).
 */
export function createAssetResponder(clientDir: string, headers: HeaderSet) {
  // Each encoding's headers made once: an answer then costs a lookup, a negotiation and a write.
  type Prepared = Representation & { headers: HeaderSet; whole: HeaderSet };
  const assets = new Map<string, { offered: ("br" | "gzip")[]; encodings: Partial<Record<Encoding, Prepared>> }>();
  for (const [url, asset] of loadAssets(path.join(clientDir, "assets"))) {
    const offered = (["br", "gzip"] as const).filter((encoding) => asset.encodings[encoding]);
    const encodings: Partial<Record<Encoding, Prepared>> = {};
    for (const [encoding, representation] of Object.entries(asset.encodings) as [Encoding, Representation][]) {
      const own: HeaderSet = {
        ...headers,
        "Cache-Control": ASSET_CACHE_CONTROL,
        "Content-Type": asset.type,
        ETag: representation.etag,
        "Accept-Ranges": "bytes",
        ...(offered.length > 0 ? { Vary: "Accept-Encoding" } : {}),
        ...(encoding === "identity" ? {} : { "Content-Encoding": encoding }),
      };
      encodings[encoding] = {
        ...representation,
        headers: own,
        whole: { ...own, "Content-Length": String(representation.body.length) },
      };
    }
    assets.set(url, { offered, encodings });
  }
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    if (req.method !== "GET" && req.method !== "HEAD") return false;
    const url = req.url ?? "";
    const query = url.indexOf("?");
    const asset = assets.get(query === -1 ? url : url.slice(0, query));
    if (!asset) return false;
    const chosen = (asset.encodings[negotiateEncoding(req, asset.offered)] ?? asset.encodings.identity)!;
    const { body, etag } = chosen;
    if (req.headers["if-none-match"]?.split(/\s*,\s*/).includes(etag)) {
      res.writeHead(304, chosen.headers).end();
      return true;
    }
    const ifRange = req.headers["if-range"];
    const range =
      req.headers.range && (!ifRange || ifRange === etag) ? parseRange(body.length, req.headers.range) : undefined;
    if (range === -1) {
      res.writeHead(416, { ...chosen.headers, "Content-Range": `bytes */${body.length}` }).end();
      return true;
    }
    if (Array.isArray(range) && range.type === "bytes" && range.length === 1) {
      const { start, end } = range[0]!;
      const part = body.subarray(start, end + 1);
      res
        .writeHead(206, {
          ...chosen.headers,
          "Content-Range": `bytes ${start}-${end}/${body.length}`,
          "Content-Length": String(part.length),
        })
        .end(req.method === "HEAD" ? undefined : part);
      return true;
    }
    res.writeHead(200, chosen.whole).end(req.method === "HEAD" ? undefined : body);
    return true;
  };
}

/** The other files at the root of `build/client` (favicon, `media/`), precompressed where the build did it. */
export function publicFiles(clientDir: string): RequestHandler {
  const serve = expressStaticGzip(clientDir, {
    ...PRECOMPRESSED,
    serveStatic: {
      cacheControl: false,
      index: false,
      redirect: false,
      setHeaders: (res) => res.setHeader("Cache-Control", PUBLIC_FILE_CACHE_CONTROL),
    },
  }) as RequestHandler;
  return (req, res, next) => {
    // express-static-gzip answers a path it cannot percent-decode (`/%E0%A4%A`) with a bare English
    // « URI malformed »: the app's error page says it in French instead (400).
    try {
      decodeURIComponent(req.path);
    } catch {
      return next(Object.assign(new Error("Chemin mal encodé"), { status: 400 }));
    }
    serve(req, res, next);
  };
}
