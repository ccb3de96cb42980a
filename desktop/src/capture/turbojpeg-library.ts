/**
 * Where the JPEG encoder's native library comes from (issue 26, decision 011).
 *
 * It is libjpeg-turbo 3.1 as shipped in the registry package
 * `@julusian/jpeg-turbo` (its N-API module is not used, only the library):
 * - Linux: `libturbojpeg.so.0` (TurboJPEG API, depends on libc only);
 * - macOS: the package links libjpeg-turbo statically into its
 *   `node-napi-v10.node`, which exports the TurboJPEG `tj3*` functions, so
 *   that file is opened as the library (not tried on a Mac here);
 * - Windows: the package's `.node` exports no TurboJPEG function and no
 *   registry package was found shipping `turbojpeg.dll`: no library.
 *
 * Under Node the file is read in node_modules. In a compiled Bun executable
 * it is embedded (see `turbojpeg-embedded.ts`) and, since the system can only
 * load a library from a real file, written to the run's private folder
 * (`../native/private-folder.ts`, issue 36 §1: mode 0700, a fresh name, removed
 * at exit on every system), loaded, and deleted at once where the system allows
 * it (not Windows).
 */
import { createRequire } from "node:module";
import path from "node:path";
import { nativeFolder } from "../native/private-folder.ts";
import { EMBEDDED_TURBOJPEG } from "./turbojpeg-embedded.ts";

/** The registry package that ships the library. */
export const TURBOJPEG_PACKAGE = "@julusian/jpeg-turbo";

/** Why the encoder cannot work (French, shown to both sides). */
export const JPEG_UNAVAILABLE =
  "L'encodeur JPEG (libjpeg-turbo) n'a pas pu être chargé sur ce système : l'écran ne peut pas être montré au technicien.";

/**
 * The library's path inside the package for a system, or null when the
 * package has none for it. `platform`/`arch` as Node names them ("linux",
 * "x64"); `musl` picks the Alpine build on Linux x64.
 */
export function turbojpegInPackage(platform: string, arch: string, musl = false): string | null {
  if (platform === "linux" && (arch === "x64" || arch === "arm64" || arch === "arm")) {
    const variant = musl && arch === "x64" ? "-musl" : "";
    return `prebuilds/jpeg-turbo-linux-${arch}${variant}/libturbojpeg.so.0`;
  }
  if (platform === "darwin" && (arch === "x64" || arch === "arm64")) {
    return `prebuilds/jpeg-turbo-darwin-${arch}/node-napi-v10.node`;
  }
  return null;
}

/** Linux with musl instead of glibc (Alpine): Node's report has no glibc version there. */
function isMusl(): boolean {
  if (process.platform !== "linux") return false;
  const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header;
  return header !== undefined && !header.glibcVersionRuntime;
}

/** The package's own folder under node_modules. Throws when it is not installed. */
function packageFolder(): string {
  // A variable, not a literal: a bundler must not try to embed the package itself.
  const name = `${TURBOJPEG_PACKAGE}/package.json`;
  return path.dirname(createRequire(import.meta.url).resolve(name));
}

/**
 * Opens the library with `load` (koffi's), issue 26: the embedded copy in a
 * compiled executable (`source: "embedded"`), else the package's file for
 * this system (`"package"`). Throws when there is none or it cannot be loaded.
 */
export function loadTurbojpeg<Library>(load: (file: string) => Library): {
  library: Library;
  source: "embedded" | "package";
} {
  if (EMBEDDED_TURBOJPEG) {
    const folder = nativeFolder();
    const file = folder.write(EMBEDDED_TURBOJPEG);
    try {
      return { library: load(file), source: "embedded" };
    } finally {
      // Loaded (mapped) or failed: either way the file is no longer needed.
      folder.releaseLoadedFile(file);
    }
  }
  const relative = turbojpegInPackage(process.platform, process.arch, isMusl());
  if (!relative) throw new Error(`Pas de libjpeg-turbo pour ${process.platform}-${process.arch}.`);
  return { library: load(path.join(packageFolder(), relative)), source: "package" };
}
