/**
 * The public pages kept in memory, answered before Express (issue 2, docs/decisions/001): since issue 29
 * they are rendered by the server at run time (`page-cache.ts`), no longer read from the build.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Request, RequestHandler, Response } from "express";
import { negotiateEncoding, type StoredEncoding } from "./encoding-negotiation.ts";
import type { CachedPage } from "./page-cache.ts";

/** Cache-Control of HTML documents: always revalidate (ETag makes it cheap). */
export const HTML_CACHE_CONTROL = "public, max-age=0, must-revalidate";

/** The page path a GET or HEAD asks for (query dropped, trailing slashes tolerated); undefined for other methods. */
export function pagePathOf(req: Pick<IncomingMessage, "method" | "url">): string | undefined {
  if (req.method !== "GET" && req.method !== "HEAD") return undefined;
  const url = req.url ?? "/";
  const query = url.indexOf("?");
  const urlPath = query === -1 ? url : url.slice(0, query);
  return urlPath.length > 1 && urlPath.endsWith("/") ? urlPath.replace(/\/+$/, "") || "/" : urlPath;
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
export function createPrerenderedResponder(
  pages: { get(path: string): CachedPage | undefined },
  baseHeaders: HeaderSet,
) {
  // Each page's answers' headers made once per page version: an answer then costs a lookup and a write.
  const prepared = new WeakMap<CachedPage, Record<StoredEncoding | "notModified", HeaderSet>>();
  const headersOf = (page: CachedPage) => {
    let made = prepared.get(page);
    if (!made) {
      const common: HeaderSet = {
        ...baseHeaders,
        "Content-Security-Policy": page.csp,
        "Cache-Control": HTML_CACHE_CONTROL,
        ETag: page.etag,
        Vary: "Accept-Encoding",
        "Content-Type": "text/html; charset=utf-8",
      };
      made = {
        notModified: common,
        identity: { ...common, "Content-Length": String(page.identity.length) },
        br: { ...common, "Content-Encoding": "br", "Content-Length": String(page.br.length) },
        gzip: { ...common, "Content-Encoding": "gzip", "Content-Length": String(page.gzip.length) },
      };
      prepared.set(page, made);
    }
    return made;
  };
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    const urlPath = pagePathOf(req);
    const page = urlPath === undefined ? undefined : pages.get(urlPath);
    if (!page) return false;
    const headers = headersOf(page);
    if (req.headers["if-none-match"] === page.etag) {
      res.writeHead(304, headers.notModified).end();
      return true;
    }
    const encoding = negotiateEncoding(req, ["br", "gzip"]);
    res.writeHead(200, headers[encoding]).end(req.method === "HEAD" ? undefined : page[encoding]);
    return true;
  };
}

/** The headers a (synchronous) helmet middleware sets, captured once. */
export function captureHeaders(middleware: RequestHandler): HeaderSet {
  const headers: HeaderSet = {};
  const res = {
    locals: {},
    setHeader: (name: string, value: string) => void (headers[name] = String(value)),
    removeHeader: (name: string) => void delete headers[name],
    getHeader: (name: string) => headers[name],
  };
  middleware({ headers: {} } as Request, res as unknown as Response, () => undefined);
  return headers;
}
