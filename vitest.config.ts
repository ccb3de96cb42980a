import { defineConfig } from "vitest/config";
import { catalogueIndexPlugin } from "./vite/catalogue-index-plugin.ts";

// Kept apart from vite.config.ts: the reactRouter() plugin must not run under Vitest.
export default defineConfig({
  // virtual:catalogue-search-index, for the model finder's component test.
  plugins: [catalogueIndexPlugin()],
  resolve: { tsconfigPaths: true },
  test: {
    include: ["app/**/*.test.{ts,tsx}", "server/**/*.test.ts", "scripts/**/*.test.ts"],
    environment: "node",
    setupFiles: ["./tests/setup-vitest.ts"],
    restoreMocks: true,
  },
});
