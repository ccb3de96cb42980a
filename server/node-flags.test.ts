import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SERVER_NODE_FLAGS } from "./node-flags.ts";

const scripts = (
  JSON.parse(readFileSync(path.resolve(import.meta.dirname, "..", "package.json"), "utf8")) as {
    scripts: Record<string, string>;
  }
).scripts;

describe("SERVER_NODE_FLAGS (issue 16 §2)", () => {
  it.each(["start", "dev"])("are the ones `npm run %s` starts Node with", (name) => {
    const command = scripts[name]!.match(/exec node ((?:--\S+ )*)\S+\.(?:ts|mjs)$/);
    expect(command?.[1]?.trim().split(" ")).toEqual([...SERVER_NODE_FLAGS]);
  });
});
