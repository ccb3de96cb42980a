/**
 * Two browser-side protections that helmet does not give (issue 13 §12):
 *
 * - `PERMISSIONS_POLICY`, the `Permissions-Policy` header sent with every
 *   answer (pre-rendered pages included: `server/app.ts` sets it in the same
 *   middleware as helmet's headers, which the pre-rendered responder copies).
 * - `requireSameOrigin()`, the Origin check of state-changing `/api` requests,
 *   so the remote-support API does not rely on SameSite=Lax cookies alone.
 *   better-auth checks `/api/auth` itself; the pages' own forms are checked by
 *   the root route's middleware (`app/utils/action-origin.ts`, issue 30).
 */
import type { RequestHandler } from "express";
import { CROSS_SITE_MESSAGE } from "#app/utils/action-origin.ts";

/**
 * Powerful features no page of ours uses are denied to every document, ours
 * and any frame. Kept for our own origin: `display-capture` (the customer's
 * screen sharing at /soft-assist calls getDisplayMedia) and `fullscreen`.
 * Only names Chromium 156 knows are listed (not `bluetooth`, `battery`,
 * `ambient-light-sensor`): an unknown one is reported in the console of every page.
 */
export const PERMISSIONS_POLICY = [
  "accelerometer=()",
  "browsing-topics=()",
  "camera=()",
  "display-capture=(self)",
  "fullscreen=(self)",
  "geolocation=()",
  "gyroscope=()",
  "hid=()",
  "idle-detection=()",
  "local-fonts=()",
  "magnetometer=()",
  "microphone=()",
  "midi=()",
  "payment=()",
  "publickey-credentials-get=()",
  "screen-wake-lock=()",
  "serial=()",
  "usb=()",
  "window-management=()",
  "xr-spatial-tracking=()",
].join(", ");

/** Answer of a refused cross-site request (403); the pages' forms say the same (issue 30, `action-origin.ts`). */
export { CROSS_SITE_MESSAGE };

/** Methods that never change anything (RFC 9110 "safe" methods); every other one is checked. */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
/** The forms router answers `{ ok, message }`; the remote-support and assistant routers `{ message }`. */
const FORM_PATHS = new Set(["/contact", "/quote"]);

/**
 * The rule of `requireSameOrigin`, also applied to the sign-in forms of
 * /soft-assist (issue 16): another site's `Origin`, or no `Origin` on a
 * request carrying a cookie that `Sec-Fetch-Site` says is cross-site.
 */
export function isCrossSite(
  request: { origin: string | undefined; fetchSite: string | undefined; hasCookie: boolean },
  publicOrigin: string,
): boolean {
  if (request.origin !== undefined) return request.origin !== publicOrigin;
  return request.hasCookie && (request.fetchSite === "cross-site" || request.fetchSite === "same-site");
}

/**
 * Middleware for `app.use("/api", …)` (issue 13 §12a). A request with a
 * method other than GET/HEAD/OPTIONS, outside `/api/auth`, is refused with
 * 403 and a French `{ message }` (`{ ok: false, message }` for /api/contact
 * and /api/quote) when
 * - its `Origin` header is present and is not `publicUrl`'s origin (`null` included), or
 * - it has no `Origin` but carries a cookie and `Sec-Fetch-Site` says
 *   `cross-site` or `same-site` (a sibling subdomain is another site for us).
 * Requests without Origin and without cookie (a script posting to
 * /api/contact) pass: they carry no one's session.
 */
export function requireSameOrigin(publicUrl: string): RequestHandler {
  const publicOrigin = new URL(publicUrl).origin;
  return (req, res, next) => {
    const path = req.path.toLowerCase();
    if (SAFE_METHODS.has(req.method) || path === "/auth" || path.startsWith("/auth/")) return next();
    const origin = req.headers.origin;
    const fetchSite = req.headers["sec-fetch-site"];
    if (!isCrossSite({ origin, fetchSite, hasCookie: req.headers.cookie !== undefined }, publicOrigin)) return next();
    // Optional: the test servers of tests/support mount the API without pino-http.
    req.log?.warn({ origin, fetchSite, method: req.method }, "API : demande d'un autre site refusée");
    res.setHeader("Cache-Control", "no-store");
    const trimmed = path.replace(/\/+$/, "");
    res
      .status(403)
      .json(FORM_PATHS.has(trimmed) ? { ok: false, message: CROSS_SITE_MESSAGE } : { message: CROSS_SITE_MESSAGE });
  };
}

/**
 * Issue 30 (no page shows an English error): before React Router's handler, a page request other than
 * GET/HEAD/OPTIONS whose `Origin` header is not a readable URL gets a French 403 page. React Router reads
 * that header with `new URL()` before any of its settings apply and answers a bare English "Bad Request";
 * browsers never send such a header (only hand-made requests do), and a readable foreign one is refused in
 * French by the root route's middleware.
 */
export const refuseUnreadableOrigin: RequestHandler = (req, res, next) => {
  const origin = req.headers.origin;
  if (SAFE_METHODS.has(req.method) || origin === undefined || origin === "null" || URL.canParse(origin)) return next();
  res.setHeader("Cache-Control", "no-store");
  res
    .status(403)
    .type("html")
    .send(
      `<!doctype html><html lang="fr"><head><meta charset="utf-8"><title>Demande refusée</title></head>` +
        `<body><h1>Demande refusée</h1><p>${CROSS_SITE_MESSAGE}</p><p><a href="/">Retour à l'accueil</a></p></body></html>`,
    );
};
