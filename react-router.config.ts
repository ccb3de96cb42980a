import type { Config } from "@react-router/dev/config";

/**
 * Every page is rendered by the server (issue 29, docs/decisions/025): the public pages once, kept in
 * memory with their encodings (`server/page-cache.ts`), so the build holds no address, shop setting or
 * price of its own and one build serves any `PUBLIC_URL`.
 *
 * Issue 30: React Router's own Origin check of actions answers a bare English "Bad Request"; every
 * origin passes it here because the root route's middleware (`app/utils/action-origin.ts`) applies the
 * same rule first and refuses with the site's French error page. Do not remove one without the other.
 */
export default { ssr: true, allowedActionOrigins: ["**"] } satisfies Config;
