/**
 * /robots.txt, pre-rendered: everything public may be crawled, the signed-out
 * /soft-assist included (docs/decisions/014); not its password-reset page
 * (links with a token) nor the API.
 */
import { getPublicEnv } from "#app/utils/env.server.ts";

export function loader() {
  const origin = getPublicEnv().PUBLIC_URL;
  const body = [
    "User-agent: *",
    "Allow: /",
    "Disallow: /soft-assist/",
    "Disallow: /api/",
    "",
    `Sitemap: ${origin}/sitemap.xml`,
    "",
  ].join("\n");
  return new Response(body, { headers: { "Content-Type": "text/plain; charset=utf-8" } });
}
