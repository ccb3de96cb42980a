/**
 * Vite plugin: the model finder's search index, built at build time (issue 3).
 *
 * `import payload from "virtual:catalogue-search-index"` gives the
 * `SearchPayload` of app/catalogue/search.ts for the whole catalogue: lookup
 * tables of names and prices (no search index: the matcher derives its words), emitted as `JSON.parse("…")` (the
 * fastest way for a browser to read a large literal). The browser therefore
 * never sees the raw catalogue and never indexes it.
 *
 * The payload is computed by importing app/catalogue/search-payload.server.ts
 * through Vite's module runner (`runnerImport`), so the catalogue modules keep
 * their JSON imports, and any catalogue error (CatalogueError)
 * fails the build. The result is cached for a build; in dev, an edit to a
 * catalogue file rebuilds the module (hot update).
 */
import path from "node:path";
import { runnerImport, type Plugin } from "vite";
import type { SearchPayload } from "#app/catalogue/search.ts";

/** The id to import. Its type is declared in vite/virtual-modules.d.ts. */
export const CATALOGUE_INDEX_ID = "virtual:catalogue-search-index";
const RESOLVED_ID = `\0${CATALOGUE_INDEX_ID}`;
const ENTRY = "app/catalogue/search-payload.server.ts";

type Built = { code: string; files: readonly string[] };

/** Imports the payload module through a throw-away module runner; returns the module code and the files read. */
async function build(root: string): Promise<Built> {
  const { module, dependencies } = await runnerImport<{ searchPayload: SearchPayload }>(path.join(root, ENTRY), {
    root,
    configFile: false,
    logLevel: "error",
    resolve: { tsconfigPaths: true },
  });
  const json = JSON.stringify(module.searchPayload);
  return {
    code: `export default /* @__PURE__ */ JSON.parse(${JSON.stringify(json)});\n`,
    files: [path.join(root, ENTRY), ...dependencies],
  };
}

export function catalogueIndexPlugin(): Plugin {
  let root = process.cwd();
  let isBuild = false;
  let cached: Promise<Built> | undefined;
  /** Files the last payload was computed from (dev): a change to one of them rebuilds it. */
  let sources = new Set<string>();
  return {
    name: "atelier:catalogue-search-index",
    configResolved(config) {
      root = config.root;
      isBuild = config.command === "build";
    },
    resolveId(id) {
      return id === CATALOGUE_INDEX_ID ? RESOLVED_ID : undefined;
    },
    async load(id) {
      if (id !== RESOLVED_ID) return undefined;
      if (isBuild) {
        // One computation per build (the client and server builds share it).
        const built = await (cached ??= build(root));
        for (const file of built.files) this.addWatchFile(file);
        return { code: built.code, moduleSideEffects: false };
      }
      // Dev and Vitest: fresh each time the module is (re)loaded. No addWatchFile here: in dev it
      // would make the catalogue an import of a browser module, which React Router refuses for
      // `.server` files; `hotUpdate` below invalidates the module instead.
      const built = await build(root);
      sources = new Set(built.files.map((file) => path.resolve(file)));
      return { code: built.code, moduleSideEffects: false };
    },
    hotUpdate({ file, modules }) {
      if (!sources.has(path.resolve(file))) return undefined;
      const virtual = this.environment.moduleGraph.getModuleById(RESOLVED_ID);
      if (!virtual) return undefined;
      this.environment.moduleGraph.invalidateModule(virtual);
      return [...modules, virtual];
    },
  };
}
