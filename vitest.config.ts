import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

// Kept apart from vite.config.ts: the reactRouter() plugin must not run under Vitest.
export default defineConfig({
  test: {
    include: [
      "app/**/*.test.{ts,tsx}",
      "server/**/*.test.ts",
      "database/**/*.test.ts",
      "scripts/**/*.test.ts",
      "desktop/**/*.test.ts",
    ],
    // Starts a throwaway PostgreSQL so persistence tests run on both databases (issue 4).
    globalSetup: ["./tests/support/vitest-global-setup.ts"],
    // PGlite opens in 1–2 s and PostgreSQL clusters start in ~2 s on 2 cores.
    hookTimeout: 60_000,
    testTimeout: 30_000,
    // `expect.poll` waits for what a server does after answering (a copy noted, a push sent). Its 1 s default
    // failed on CI's loaded 2 cores (session 45: one status request took longer than the whole wait).
    expect: { poll: { timeout: 10_000 } },
    // Vitest's default leaves a core idle (cores − 1: one file at a time on 2 cores), while a file spends much of
    // its time waiting on its databases, servers and sockets: 455 → 323 s for the remote-support files (issue 30 §3).
    maxWorkers: availableParallelism(),
    environment: "node",
    setupFiles: ["./tests/setup-vitest.ts"],
    restoreMocks: true,
  },
});
