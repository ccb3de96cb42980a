import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const entry = path.resolve(import.meta.dirname, "index.ts");

describe("server start-up", () => {
  it.each([
    ["PORT", "quatre-vingts"],
    ["PUBLIC_URL", "exemple.fr"],
    ["LOG_LEVEL", "bavard"],
  ])("stops with a message naming %s when it is invalid", (variable, value) => {
    const result = spawnSync(process.execPath, [entry], {
      env: { PATH: process.env.PATH, [variable]: value },
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("Configuration invalide");
    expect(result.stderr).toContain(variable);
    expect(result.stderr).not.toMatch(/at .*\.ts:\d+/); // no stack trace
  });
});
