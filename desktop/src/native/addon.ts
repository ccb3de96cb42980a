/**
 * Loads a Node-API addon embedded in the compiled executable from a real file (issue 36 §1): koffi's
 * `.node` for the target, which `scripts/desktop-bundle.ts` embeds as a plain file (`type: "file"`)
 * instead of letting Bun extract it (Bun's Windows build extracts it to a path Wine cannot open, then
 * looks for it at a `B:/~BUN/…` path that does not exist: « LoadLibrary failed: Module not found »).
 * The file goes to this run's private folder (`private-folder.ts`), is loaded with `process.dlopen`,
 * and is deleted at once where the system allows it. Throws the loader's error when it cannot load.
 */
import { type EmbeddedFile, nativeFolder, type PrivateFolder } from "./private-folder.ts";

/** The addon's exports (koffi's native functions for koffi). */
export function loadEmbeddedAddon(embedded: EmbeddedFile, folder: PrivateFolder = nativeFolder()): unknown {
  const file = folder.write(embedded);
  try {
    const module = { exports: {} as unknown };
    process.dlopen(module, file);
    return module.exports;
  } finally {
    folder.releaseLoadedFile(file);
  }
}
