import type { Config } from "@react-router/dev/config";
import { PRERENDERED_PATHS } from "./app/config/public-routes.ts";

/**
 * Public pages are pre-rendered to HTML at build time (issue 2); the rest
 * (the signed-in area) is rendered by the server shell and the client.
 */
export default {
  ssr: true,
  prerender: { paths: [...PRERENDERED_PATHS, "/robots.txt", "/sitemap.xml"], concurrency: 4 },
} satisfies Config;
