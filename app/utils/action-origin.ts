/**
 * Issue 30 §1: the Origin check of the pages' own forms (route actions), answered in French.
 *
 * React Router checks the `Origin` of every action itself, but refuses with a bare English page,
 * "Bad Request" (400, `handleDocumentRequest` in react-router's `server-runtime/server.js`), that no
 * visitor should ever see. `react-router.config.ts` therefore lets every origin past that check
 * (`allowedActionOrigins: ["**"]`) and this middleware of the root route applies the same rule first,
 * on every route below it: a refused post gets the site's own error page (root `ErrorBoundary`), in
 * French, with status 403, and a post with JavaScript gets the same page through the client router.
 */
import { data, type MiddlewareFunction } from "react-router";

/** The sentence of a refused cross-site request, for the API (`server/security.ts`) and the pages alike. */
export const CROSS_SITE_MESSAGE =
  "Cette demande vient d'un autre site : elle est refusée. Ouvrez le site à son adresse habituelle et réessayez.";

/** The status of a refused cross-site action; the root `ErrorBoundary` shows its message for it. */
export const CROSS_SITE_STATUS = 403;

/** Methods that never run an action (RFC 9110 "safe" methods). */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * React Router's rule for an action's `Origin` header (`throwIfPotentialCSRFAttack`): absent, it
 * passes (no browser omits it on a cross-site post); present, it must be the origin of `requestUrl`,
 * the URL React Router built from the request (scheme, host and port compared). The opaque `null`
 * (a sandboxed frame, or a page whose referrer policy is `no-referrer`) and anything unreadable fail.
 */
export function isForeignActionOrigin(origin: string | null, requestUrl: string): boolean {
  if (origin === null) return false;
  try {
    return new URL(origin).origin !== new URL(requestUrl).origin;
  } catch {
    return true;
  }
}

/**
 * Root-route middleware: refuses an action (any method but GET/HEAD/OPTIONS) whose `Origin` fails
 * `isForeignActionOrigin`, by throwing `data(CROSS_SITE_MESSAGE, 403)` before any loader or action runs.
 */
export const refuseForeignActions: MiddlewareFunction<Response> = ({ request }) => {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return;
  if (!isForeignActionOrigin(request.headers.get("origin"), request.url)) return;
  throw data(CROSS_SITE_MESSAGE, { status: CROSS_SITE_STATUS, headers: { "Cache-Control": "no-store" } });
};
