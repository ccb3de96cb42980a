import type { Config } from "@react-router/dev/config";

/**
 * Every page is rendered by the server (issue 29, docs/decisions/025): the public pages once, kept in
 * memory with their encodings (`server/page-cache.ts`), so the build holds no address, shop setting or
 * price of its own and one build serves any `PUBLIC_URL`.
 */
export default { ssr: true } satisfies Config;
