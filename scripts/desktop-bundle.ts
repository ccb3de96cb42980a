/**
 * Runs INSIDE Bun (spawned by `scripts/build-desktop.ts`, never by Node): compiles the desktop app for
 * one target with `Bun.build`, because the koffi redirection below needs a bundler plugin, which the
 * `bun build` command line cannot take.
 *
 * Usage: `bun scripts/desktop-bundle.ts '<json BundleJob>'`.
 *
 * koffi finds its native part with `createRequire(import.meta.url)("@koromix/koffi-<platform>-<arch>")`
 * for the system it runs on (node_modules/koffi/src/koffi/src/static.js). Bun leaves such requires
 * to run time, where the executable has no node_modules: "Cannot find the native Koffi module".
 * (The host's Linux package would not do either: it picks its `.node` file by a computed path.)
 * The plugin replaces static.js with an embedded-file import of the target's `koffi.node`, written to the
 * run's private folder and loaded from there (issue 36 §1: Bun's own extraction of a required `.node`
 * fails under Wine); other systems' modules are never bundled.
 *
 * Issue 26: the JPEG encoder's libjpeg-turbo is a plain shared library (loaded with koffi, not
 * required), so a second plugin replaces `desktop/src/capture/turbojpeg-embedded.ts` with
 * `import file from "<target's library>" with { type: "file" }`: Bun embeds the file and the app
 * writes it to a private temporary folder to load it (turbojpeg-library.ts). Targets the package
 * ships no library for (Windows) get `null`, and the app reports the encoder unavailable.
 *
 * Issue 27: the window's webview library (`webview-bun`'s prebuilt webview 0.12, decision 022) is
 * embedded the same way, by a third plugin replacing `desktop/src/views/webview-embedded.ts`; every
 * target has one, and a missing file stops the build.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { TURBOJPEG_PACKAGE, turbojpegInPackage } from "../desktop/src/capture/turbojpeg-library.ts";
import { WEBVIEW_PACKAGE, webviewInPackage } from "../desktop/src/views/webview-library.ts";

/** What build-desktop.ts asks for (one target). */
export type BundleJob = {
  entry: string;
  outfile: string;
  /** Bun's compile target, e.g. "bun-windows-x64". */
  bunTarget: string;
  /** The target's Bun runtime, from the registry package (never downloaded by Bun itself). */
  executablePath: string;
  /** koffi's name of the target, `${process.platform}-${process.arch}`: "win32-x64". */
  koffiPlatform: string;
  /** Absolute path of the target's koffi.node. */
  koffiNode: string;
  /** Identifier → JSON text, e.g. { __SERVER_URL__: '"https://…"' }. */
  define: Record<string, string>;
  bytecode: boolean;
};

type OnLoadArgs = { path: string };
type PluginBuilder = {
  onLoad(
    options: { filter: RegExp; namespace?: string },
    callback: (args: OnLoadArgs) => { contents: string; loader: "js" },
  ): void;
};
type BuildOutput = { success: boolean; logs: unknown[] };
/** The part of Bun's API used here (the project has no Bun type package). */
declare const Bun: {
  build(options: {
    entrypoints: string[];
    compile: {
      target: string;
      outfile: string;
      executablePath: string;
      autoloadDotenv: boolean;
      autoloadBunfig: boolean;
      autoloadTsconfig: boolean;
      autoloadPackageJson: boolean;
    };
    minify: boolean;
    bytecode: boolean;
    sourcemap: "none";
    define: Record<string, string>;
    plugins: { name: string; setup(build: PluginBuilder): void }[];
    throw: boolean;
  }): Promise<BuildOutput>;
};

/**
 * Bun plugin: koffi's `loadStatic()` (static.js) replaced by one that loads the target's `.node` file from a
 * real file (issue 36 §1). The original calls `createRequire(import.meta.url)(name)`, which Bun leaves to run
 * time, where no node_modules exists. The `.node` is embedded as a plain file and written to the run's private
 * folder by `desktop/src/native/addon.ts`: Bun's own extraction of a required `.node` fails under Wine.
 */
function koffiPlugin(job: BundleJob) {
  const addon = path.join(import.meta.dirname, "..", "desktop", "src", "native", "addon.ts");
  return {
    name: "koffi-target",
    setup(build: PluginBuilder) {
      build.onLoad({ filter: /[\\/]koffi[\\/]src[\\/]koffi[\\/]src[\\/]static\.js$/ }, () => ({
        loader: "js",
        contents: [
          `import file from ${JSON.stringify(job.koffiNode)} with { type: "file" };`,
          `import { loadEmbeddedAddon } from ${JSON.stringify(addon)};`,
          "export function loadStatic(pkg) {",
          `  return pkg === ${JSON.stringify(job.koffiPlatform)} ? loadEmbeddedAddon({ file, name: "koffi.node" }) : null;`,
          "}",
        ].join("\n"),
      }));
    },
  };
}

/**
 * The target's libjpeg-turbo in the project's `@julusian/jpeg-turbo` (one package holds every
 * system's build), or null when it ships none for the target. A missing file stops the build:
 * an executable without its encoder would only say so at run time.
 */
function turbojpegFile(koffiPlatform: string): string | null {
  const [platform = "", arch = ""] = koffiPlatform.split("-");
  const relative = turbojpegInPackage(platform, arch);
  if (!relative) return null;
  const file = path.join(import.meta.dirname, "..", "node_modules", TURBOJPEG_PACKAGE, relative);
  if (!existsSync(file)) throw new Error(`libjpeg-turbo introuvable pour ${koffiPlatform} : ${file}`);
  return file;
}

/** Bun plugin: `turbojpeg-embedded.ts` replaced by an embedded-file import of the target's library (issue 26). */
function turbojpegPlugin(job: BundleJob) {
  const file = turbojpegFile(job.koffiPlatform);
  return {
    name: "turbojpeg-target",
    setup(build: PluginBuilder) {
      build.onLoad({ filter: /[\\/]desktop[\\/]src[\\/]capture[\\/]turbojpeg-embedded\.ts$/ }, () => ({
        loader: "js",
        contents: file
          ? [
              `import file from ${JSON.stringify(file)} with { type: "file" };`,
              `export const EMBEDDED_TURBOJPEG = { file, name: ${JSON.stringify(path.basename(file))} };`,
            ].join("\n")
          : "export const EMBEDDED_TURBOJPEG = null;",
      }));
    },
  };
}

/** Bun plugin: `webview-embedded.ts` replaced by an embedded-file import of the target's webview library (issue 27). */
function webviewPlugin(job: BundleJob) {
  const [platform = "", arch = ""] = job.koffiPlatform.split("-");
  const relative = webviewInPackage(platform, arch);
  if (!relative) throw new Error(`Pas de bibliothèque webview pour ${job.koffiPlatform}`);
  const file = path.join(import.meta.dirname, "..", "node_modules", WEBVIEW_PACKAGE, relative);
  if (!existsSync(file)) throw new Error(`Bibliothèque webview introuvable pour ${job.koffiPlatform} : ${file}`);
  return {
    name: "webview-target",
    setup(build: PluginBuilder) {
      build.onLoad({ filter: /[\\/]desktop[\\/]src[\\/]views[\\/]webview-embedded\.ts$/ }, () => ({
        loader: "js",
        contents: [
          `import file from ${JSON.stringify(file)} with { type: "file" };`,
          `export const EMBEDDED_WEBVIEW = { file, name: ${JSON.stringify(path.basename(file))} };`,
        ].join("\n"),
      }));
    },
  };
}

const job = JSON.parse(process.argv[2] ?? "{}") as BundleJob;
const result = await Bun.build({
  entrypoints: [job.entry],
  compile: {
    target: job.bunTarget,
    outfile: job.outfile,
    executablePath: job.executablePath,
    // The customer's folder may hold any .env, bunfig.toml or package.json: none may change the app.
    autoloadDotenv: false,
    autoloadBunfig: false,
    autoloadTsconfig: false,
    autoloadPackageJson: false,
  },
  minify: true,
  bytecode: job.bytecode,
  sourcemap: "none",
  define: job.define,
  plugins: [koffiPlugin(job), turbojpegPlugin(job), webviewPlugin(job)],
  throw: false,
});
if (!result.success) {
  for (const log of result.logs) console.error(log);
  process.exit(1);
}
