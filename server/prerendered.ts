/**
 * The public pages kept in memory, answered before Express (issue 2, docs/decisions/001): since issue 29
 * they are rendered by the server at run time (`page-cache.ts`), no longer read from the build.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Request, RequestHandler, Response } from "express";
import Negotiator from "negotiator";
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
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    const urlPath = pagePathOf(req);
    const page = urlPath === undefined ? undefined : pages.get(urlPath);
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
