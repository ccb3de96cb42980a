import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { drizzleFolderUrl, isDrizzleInternalImport } from "./module-resolve.ts";

const drizzleFolder = fileURLToPath(drizzleFolderUrl);
const hook = path.resolve(import.meta.dirname, "module-resolve.ts");

function packageJsonFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: "utf8" }).filter(
    (file) => path.basename(file) === "package.json",
  );
}

/** The drizzle-orm modules a process loads for `drizzle-orm/node-postgres`, as URLs, sorted. */
function loadedDrizzleModules(withHook: boolean): string[] {
  const script = `
    import { registerHooks } from "node:module";
    const seen = new Set();
    registerHooks({ load(url, context, next) { if (url.includes("/drizzle-orm/")) seen.add(url); return next(url, context); } });
    const { drizzle } = await import("drizzle-orm/node-postgres");
    if (typeof drizzle !== "function") throw new Error("drizzle missing");
    console.log(JSON.stringify([...seen].sort()));
  `;
  const flags = withHook ? ["--import", hook] : [];
  const out = execFileSync(process.execPath, [...flags, "--input-type=module", "-e", script], { encoding: "utf8" });
  return JSON.parse(out) as string[];
}

describe("drizzle-orm resolution shortcut (issue 29, start under 2 s)", () => {
  it("relies on what drizzle-orm's package says: ES modules, one package.json", () => {
    const manifest = JSON.parse(readFileSync(path.join(drizzleFolder, "package.json"), "utf8")) as { type?: string };
    expect(manifest.type).toBe("module");
    expect(packageJsonFiles(drizzleFolder)).toEqual(["package.json"]);
  });

  it("answers only relative .js imports between drizzle-orm's own files", () => {
    const parent = `${drizzleFolderUrl}pg-core/table.js`;
    expect(isDrizzleInternalImport("../sql/sql.js", parent)).toBe(true);
    expect(isDrizzleInternalImport("./columns/index.js", parent)).toBe(true);
    expect(isDrizzleInternalImport("pg", parent)).toBe(false);
    expect(isDrizzleInternalImport("./table.cjs", parent)).toBe(false);
    expect(isDrizzleInternalImport("../../pg/lib/index.js", parent)).toBe(false);
    expect(isDrizzleInternalImport("./sql/sql.js", "file:///work/elsewhere/index.js")).toBe(false);
    expect(isDrizzleInternalImport("./sql/sql.js", undefined)).toBe(false);
  });

  it("loads the same drizzle-orm modules as Node's own resolution", { timeout: 60_000 }, () => {
    const withHook = loadedDrizzleModules(true);
    expect(withHook.length).toBeGreaterThan(100);
    expect(withHook).toEqual(loadedDrizzleModules(false));
  });
});
