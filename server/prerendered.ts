/**
 * Pre-rendered pages, served from memory (issue 2).
 *
 * At start every `build/client/**\/index.html` is read once and kept with its
 * gzip and brotli encodings, an ETag and a CSP header whose hashes allow
 * exactly its own inline scripts. React Router's handler would otherwise render
 * these paths again on every request.
 */
import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import type { NextFunction, Request, Response } from "express";
import { cspDirectives, inlineScriptHashes, serializeCsp } from "./csp.ts";

export type PrerenderedPage = {
  identity: Buffer;
  gzip: Buffer;
  br: Buffer;
  etag: string;
  csp: string;
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

/** Maps a URL path ("/products/pc") to its page, for every pre-rendered file under `clientDir`. */
export async function loadPrerenderedPages(
  clientDir: string,
  options: { https: boolean },
): Promise<Map<string, PrerenderedPage>> {
  const pages = new Map<string, PrerenderedPage>();
  for (const file of await findIndexFiles(clientDir)) {
    const identity = await readFile(file);
    const relative = path.relative(clientDir, path.dirname(file)).split(path.sep).join("/");
    const urlPath = relative === "" ? "/" : `/${relative}`;
    const html = identity.toString("utf8");
    pages.set(urlPath, {
      identity,
      gzip: gzipSync(identity, { level: 9 }),
      br: brotliCompressSync(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
      etag: `"${createHash("sha1").update(identity).digest("base64url")}"`,
      csp: serializeCsp(
        cspDirectives({ scriptSources: inlineScriptHashes(html), development: false, https: options.https }),
      ),
    });
  }
  return pages;
}

/** Express middleware answering GET/HEAD for pre-rendered paths (trailing slash tolerated). */
export function servePrerendered(pages: Map<string, PrerenderedPage>) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const urlPath = req.path.length > 1 ? req.path.replace(/\/+$/, "") : req.path;
    const page = pages.get(urlPath);
    if (!page) return next();

    res.setHeader("Content-Security-Policy", page.csp);
    res.setHeader("Cache-Control", HTML_CACHE_CONTROL);
    res.setHeader("ETag", page.etag);
    res.setHeader("Vary", "Accept-Encoding");
    res.type("html");
    if (req.headers["if-none-match"] === page.etag) {
      res.status(304).end();
      return;
    }
    const accepted = req.acceptsEncodings("br", "gzip", "identity");
    const body = accepted === "br" ? page.br : accepted === "gzip" ? page.gzip : page.identity;
    if (accepted === "br" || accepted === "gzip") res.setHeader("Content-Encoding", accepted);
    res.setHeader("Content-Length", body.length);
    res.status(200).end(req.method === "HEAD" ? undefined : body);
  };
}
