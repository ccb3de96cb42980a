/**
 * The Node options the server runs with (issue 16 §2), in one place:
 * `package.json`'s `start` and `dev` scripts pass them (checked by
 * `node-flags.test.ts`), and so do the tests and benchmarks that start
 * `server/index.ts` themselves.
 *
 * `--max-semi-space-size=8` (MB): V8 sizes its young generation from the
 * machine's memory (up to 2 × 64 MB on this 24 GB machine); the server's
 * start-up allocations grew it to 128 MB, which then stayed resident while
 * holding about 1 MB of live objects. Capped at 8 MB, the idle server holds
 * about 110 MB less, for slightly more frequent young-generation collections
 * (figures in docs/decisions/012).
 */
export const SERVER_NODE_FLAGS: readonly string[] = ["--max-semi-space-size=8"];
