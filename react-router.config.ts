import path from "node:path";
import type { Config } from "@react-router/dev/config";
import { PRERENDERED_PATHS } from "./app/config/public-routes.ts";
import { precompressDir } from "./scripts/precompress.ts";
import { stripModulepreloadInDir } from "./scripts/strip-modulepreload.ts";

/**
 * Public pages are pre-rendered to HTML at build time (issue 2); the rest
 * (the signed-in area) is rendered by the server shell and the client.
 */
export default {
  ssr: true,
  prerender: { paths: [...PRERENDERED_PATHS, "/robots.txt", "/sitemap.xml"], concurrency: 4 },
  async buildEnd({ reactRouterConfig }) {
    const client = path.join(reactRouterConfig.buildDirectory, "client");
    const changed = await stripModulepreloadInDir(client);
    const compressed = await precompressDir(client);
    console.log(`modulepreload retiré de ${changed} pages pré-rendues, ${compressed} pages compressées (br, gz)`);
  },
} satisfies Config;
