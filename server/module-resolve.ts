/**
 * A module resolution shortcut for drizzle-orm (issue 29: a start at a new address ready in under 2 s;
 * issue 30 §2).
 *
 * Why: Node 24 (24.21 measured) deserializes the nearest `package.json` again for every ES module it
 * resolves, to learn the module's format. drizzle-orm's is 179 KB (its `exports` map lists every
 * file), and the server loads about 450 of its modules: `import("drizzle-orm/node-postgres")` takes
 * 1 370 ms under Node 24 against 170 ms under Node 20, and was 1.2 s of the server's 3.3 s start.
 *
 * What: a synchronous resolve hook (`module.registerHooks`, in this thread) answers the relative
 * `.js` imports between drizzle-orm's own files itself: the URL is the specifier against its parent,
 * the format is `module` (drizzle-orm's `package.json` says `"type": "module"` and it has no nested
 * `package.json`; `module-resolve.test.ts` checks both, so an upgrade that changes them fails a test
 * instead of loading a file wrongly). Every other import goes through Node's own resolution.
 * Same modules, same URLs as without the hook: only the lookups are skipped (about 100 ms instead of
 * 1 370 ms for the import above).
 *
 * Loaded before anything resolves drizzle-orm: imported first by `server/index.ts` (which then loads the
 * database layer with dynamic imports: an entry's static imports are all resolved before any of them
 * runs), and given to the commands (`user`, `purge`, `backup`, `restore`) by `node --import` in
 * `package.json`.
 */
// A namespace import: under another Node (no `registerHooks`), linking must not fail before `check-node.mjs` says why.
import * as nodeModule from "node:module";
import { pathToFileURL } from "node:url";
import path from "node:path";

/** `file:` URL of drizzle-orm's folder, with a trailing slash (exported for the test). */
export const drizzleFolderUrl = pathToFileURL(
  path.resolve(import.meta.dirname, "..", "node_modules", "drizzle-orm") + path.sep,
).href;

/** True for an import this hook answers: a relative `.js` specifier from one drizzle-orm module to another. */
export function isDrizzleInternalImport(specifier: string, parentUrl: string | undefined): boolean {
  return (
    parentUrl !== undefined &&
    parentUrl.startsWith(drizzleFolderUrl) &&
    (specifier.startsWith("./") || specifier.startsWith("../")) &&
    specifier.endsWith(".js") &&
    new URL(specifier, parentUrl).href.startsWith(drizzleFolderUrl)
  );
}

nodeModule.registerHooks?.({
  resolve(specifier, context, nextResolve) {
    if (isDrizzleInternalImport(specifier, context.parentURL)) {
      return { url: new URL(specifier, context.parentURL).href, format: "module", shortCircuit: true };
    }
    return nextResolve(specifier, context);
  },
});
