/**
 * Loads koffi (the FFI used by every injection backend, issue 15) only when a
 * backend needs it, so a missing native part gives a French status instead of
 * a crash at start, and a Windows build never touches Linux code paths.
 *
 * Under Node (tests) koffi finds its native part in the
 * `@koromix/koffi-<os>-<arch>` package. In a `bun build --compile` executable
 * that run-time lookup cannot work: the packaging (scripts/desktop-bundle.ts,
 * decision 011) replaces koffi's loader with a literal require of the target's
 * `koffi.node`, which Bun embeds. Nothing here depends on which way it came.
 */
import type { LibraryHandle } from "koffi";

/** The koffi module. */
export type Koffi = typeof import("koffi");
/** A library opened with `koffi.load`. */
export type IKoffiLib = LibraryHandle;

let cached: Koffi | undefined;

/** koffi's module; throws when its native part cannot be loaded on this system. */
export async function loadKoffi(): Promise<Koffi> {
  if (!cached) {
    const module = (await import("koffi")) as Koffi & { default?: Koffi };
    // Node's ESM loader and Bun both expose the functions as named exports; `default` is the same object.
    cached = module.default ?? module;
  }
  return cached;
}

/** Why injection cannot start when koffi itself is missing (French, shown to both sides). */
export const KOFFI_MISSING =
  "Le module de prise de contrôle (koffi) n'a pas pu être chargé sur ce système : la prise de contrôle n'est pas possible.";
