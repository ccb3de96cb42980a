/** /sitemap.xml, pre-rendered from the one list of public routes (app/config/public-routes.ts). */
import { sitemapXml } from "#app/config/public-routes.ts";
import { getPublicEnv } from "#app/utils/env.server.ts";

export function loader() {
  const origin = getPublicEnv().PUBLIC_URL;
  const body = sitemapXml(origin);
  return new Response(body, { headers: { "Content-Type": "application/xml; charset=utf-8" } });
}
