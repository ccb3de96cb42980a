/**
 * Pre-rendered pages, served from memory (issue 2).
 *
 * At start every `build/client/**\/index.html` is read once and kept with its
 * gzip and brotli encodings, an ETag and a CSP header whose hashes allow
 * exactly its own inline scripts and styles. React Router's handler would otherwise render
 * these paths again on every request.
 */
import { createHash } from "node:crypto";
import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import type { IncomingMessage, ServerResponse } from "node:http";
import Negotiator from "negotiator";
import { compressBoth } from "./compression.ts";
import { cspDirectives, inlineScriptHashes, inlineStyleHashes, serializeCsp } from "./csp.ts";

export type PrerenderedPage = {
  identity: Buffer;
  gzip: Buffer;
  br: Buffer;
  etag: string;
  csp: string;
  /** `'sha256-…'` of the page's `<style>` elements (the inlined stylesheet), also allowed in its CSP. */
  styleHashes: string[];
};

/** Cache-Control of HTML documents: always revalidate (ETag makes it cheap). */
export const HTML_CACHE_CONTROL = "public, max-age=0, must-revalidate";

async function findIndexFiles(dir: string, base = dir): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const files: string[] = [];
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await findIndexFiles(full, base)));
    else if (entry.name === "index.html") files.push(full);
  }
  return files;
}

/**
 * Maps a URL path ("/products/pc") to its page, for every pre-rendered file under `clientDir`.
 * Reads the `.br`/`.gz` files written by the build (scripts/precompress.ts); compresses the page
 * itself only when they are missing or older than the page.
 */
export async function loadPrerenderedPages(
  clientDir: string,
  options: { https: boolean },
): Promise<Map<string, PrerenderedPage>> {
  const files = await findIndexFiles(clientDir);
  const entries = await Promise.all(
    files.map(async (file): Promise<[string, PrerenderedPage]> => {
      const identity = await readFile(file);
      const encoded = (await readPrecompressed(file)) ?? (await compressBoth(identity));
      const relative = path.relative(clientDir, path.dirname(file)).split(path.sep).join("/");
      const html = identity.toString("utf8");
      const styleHashes = inlineStyleHashes(html);
      return [
        relative === "" ? "/" : `/${relative}`,
        {
          identity,
          ...encoded,
          etag: `"${createHash("sha1").update(identity).digest("base64url")}"`,
          csp: serializeCsp(
            cspDirectives({
              scriptSources: inlineScriptHashes(html),
              styleSources: styleHashes,
              development: false,
              https: options.https,
            }),
          ),
          styleHashes,
        },
      ];
    }),
  );
  return new Map(entries);
}

async function readPrecompressed(file: string): Promise<{ br: Buffer; gzip: Buffer } | undefined> {
  try {
    const [page, br, gz] = await Promise.all([stat(file), stat(`${file}.br`), stat(`${file}.gz`)]);
    if (br.mtimeMs < page.mtimeMs || gz.mtimeMs < page.mtimeMs) return undefined;
    const [brBody, gzBody] = await Promise.all([readFile(`${file}.br`), readFile(`${file}.gz`)]);
    return { br: brBody, gzip: gzBody };
  } catch {
    return undefined;
  }
}

/** Header name → value, as captured from helmet at start. */
export type HeaderSet = Record<string, string>;

/**
 * A raw `http` request listener for pre-rendered pages: GET/HEAD on a known
 * path (trailing slash tolerated) is answered from memory with `baseHeaders`
 * (helmet's security headers) plus the page's own CSP, ETag and encoding.
 * Returns false when the request is not for a pre-rendered page, so the
 * caller passes it on to Express. Running before Express keeps these pages
 * close to a static file server's speed (bench/throughput.ts).
 */
export function createPrerenderedResponder(pages: Map<string, PrerenderedPage>, baseHeaders: HeaderSet) {
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    if (req.method !== "GET" && req.method !== "HEAD") return false;
    const url = req.url ?? "/";
    const query = url.indexOf("?");
    let urlPath = query === -1 ? url : url.slice(0, query);
    if (urlPath.length > 1 && urlPath.endsWith("/")) urlPath = urlPath.replace(/\/+$/, "");
    const page = pages.get(urlPath);
    if (!page) return false;

    const headers: HeaderSet = {
      ...baseHeaders,
      "Content-Security-Policy": page.csp,
      "Cache-Control": HTML_CACHE_CONTROL,
      ETag: page.etag,
      Vary: "Accept-Encoding",
      "Content-Type": "text/html; charset=utf-8",
    };
    if (req.headers["if-none-match"] === page.etag) {
      res.writeHead(304, headers).end();
      return true;
    }
    const encoding = req.headers["accept-encoding"]
      ? new Negotiator(req).encoding(["br", "gzip", "identity"])
      : "identity";
    const body = encoding === "br" ? page.br : encoding === "gzip" ? page.gzip : page.identity;
    if (encoding === "br" || encoding === "gzip") headers["Content-Encoding"] = encoding;
    headers["Content-Length"] = String(body.length);
    res.writeHead(200, headers).end(req.method === "HEAD" ? undefined : body);
    return true;
  };
}
