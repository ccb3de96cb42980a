/** /sitemap.xml, pre-rendered from the one list of public routes (app/config/public-routes.ts). */
import { sitemapXml } from "~/config/public-routes";
import { getPublicEnv } from "~/utils/env.server";

export function loader() {
  const origin = getPublicEnv().PUBLIC_URL;
  const body = sitemapXml(origin);
  return new Response(body, { headers: { "Content-Type": "application/xml; charset=utf-8" } });
}
