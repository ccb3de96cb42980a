/** /sitemap.xml, pre-rendered from the one list of public routes (app/config/public-routes.ts). */
import { PRERENDERED_PATHS } from "~/config/public-routes";
import { getEnv } from "~/utils/env.server";

export function loader() {
  const origin = getEnv().PUBLIC_URL;
  const urls = PRERENDERED_PATHS.map((path) => `  <url><loc>${new URL(path, origin).href}</loc></url>`).join("\n");
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
  return new Response(body, { headers: { "Content-Type": "application/xml; charset=utf-8" } });
}
