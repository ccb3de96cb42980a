/**
 * A server process closed right after it started ends its Socket.IO PostgreSQL pool
 * (`postgres-adapter-close.ts`): with the adapter's own close, `pool.end()` never returned.
 */
import { createServer } from "node:http";
import { createAdapter } from "@socket.io/postgres-adapter";
import pg from "pg";
import { Server } from "socket.io";
import { describe, expect, inject, it } from "vitest";
import { closePostgresAdapters } from "./postgres-adapter-close.ts";

const url = inject("postgresUrl");

describe.runIf(url)("closing the PostgreSQL adapter", () => {
  it("ends the pool even when the server closes before its LISTEN connection is open", async () => {
    for (let i = 0; i < 5; i++) {
      const pool = new pg.Pool({ connectionString: url, max: 2 });
      const io = new Server(createServer(), { adapter: createAdapter(pool) });
      const adapters = [io.of("/").adapter, io.of("/device").adapter];
      await closePostgresAdapters(adapters, pool, 20_000);
      expect(pool.ended).toBe(true);
      expect(pool.totalCount).toBe(0);
    }
  });
});
