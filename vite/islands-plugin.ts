/**
 * Vite plugin: the islands entry of the pre-rendered content pages (issue 16, docs/decisions/013).
 *
 * React Router's client build only takes its own entry and the route modules as inputs, so this
 * plugin adds `app/islands/main.ts` to the client build as one more entry chunk (content-hashed,
 * sharing React's chunks with the rest of the client build), and gives its URL to the server
 * build: `import islandsEntry from "virtual:islands-entry"` is e.g. `"/assets/islands-Ab12.js"`.
 * The client build is finished before the server build starts (React Router builds them in that
 * order with shared plugins), so the URL is known when the server build asks for it. In the client
 * bundle and in dev the value is the entry's source path (dev serves it as is; root.tsx uses the
 * URL only in a server render of a production build).
 */
import path from "node:path";
import type { Plugin } from "vite";

/** The id to import. Its type is declared in vite/virtual-modules.d.ts. */
export const ISLANDS_ENTRY_ID = "virtual:islands-entry";
const RESOLVED_ID = `\0${ISLANDS_ENTRY_ID}`;
/** The islands entry, relative to the project root. */
export const ISLANDS_ENTRY = "app/islands/main.ts";

export function islandsPlugin(): Plugin {
  let root = process.cwd();
  let base = "/";
  let isBuild = false;
  let reference: string | undefined;
  let fileName: string | undefined;
  return {
    name: "atelier:islands-entry",
    configResolved(config) {
      root = config.root;
      base = config.base;
      isBuild = config.command === "build";
    },
    buildStart() {
      if (!isBuild || this.environment.name !== "client") return;
      reference = this.emitFile({ type: "chunk", id: path.join(root, ISLANDS_ENTRY), name: "islands" });
    },
    generateBundle() {
      if (this.environment.name === "client" && reference) fileName = this.getFileName(reference);
    },
    resolveId(id) {
      return id === ISLANDS_ENTRY_ID ? RESOLVED_ID : undefined;
    },
    load(id) {
      if (id !== RESOLVED_ID) return undefined;
      let url = `${base}${ISLANDS_ENTRY}`;
      if (isBuild && this.environment.name !== "client") {
        if (!fileName) throw new Error(`${ISLANDS_ENTRY} n'a pas été construit avant le rendu serveur`);
        url = `${base}${fileName}`;
      }
      return { code: `export default ${JSON.stringify(url)};\n`, moduleSideEffects: false };
    },
  };
}
