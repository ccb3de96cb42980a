/**
 * The desktop app's build targets (issue 15, "Packaging") and the registry packages each one needs:
 * Bun's runtime for that system (`@oven/bun-*`, the base of the executable) and koffi's native part
 * (`@koromix/koffi-*`). Both come from the npm registry through `npm pack`, into
 * `node_modules/.cache/desktop-build/packages/`, so neither Bun nor anything else downloads from
 * another host (Bun would fetch a cross-compilation runtime from GitHub otherwise).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import type { DevicePlatform } from "#app/remote-support/device-protocol.ts";

export const BUN_VERSION = "1.4.5";
export const KOFFI_VERSION = "3.3.4";

export const ROOT = path.resolve(import.meta.dirname, "..");
export const CACHE_DIR = path.join(ROOT, "node_modules", ".cache", "desktop-build");

/** One executable to build. */
export type DesktopTarget = {
  /** Our name, for `--target`. */
  id: "linux-x64" | "windows-x64" | "darwin-arm64" | "darwin-x64";
  platform: DevicePlatform;
  arch: "x64" | "arm64";
  /** Shown on the download panel. */
  label: string;
  /** End of the file name: `atelier-assistance-<version>-<suffix>`. */
  suffix: string;
  /** Bun's `compile.target`. */
  bunTarget: string;
  bunPackage: string;
  /** The runtime inside `bunPackage`. */
  bunBinary: string;
  /** koffi's name of the system, `${process.platform}-${process.arch}`. */
  koffiPlatform: string;
  /** Its native module inside `@koromix/koffi-<koffiPlatform>` (glibc build on Linux). */
  koffiNode: string;
};

/**
 * The four systems offered, in the download panel's order. Bun's "-baseline" packages (for CPUs
 * without AVX2) hold byte-identical runtimes in 1.4.5, so there is one x64 build per system.
 */
export const TARGETS: readonly DesktopTarget[] = [
  {
    id: "linux-x64",
    platform: "linux",
    arch: "x64",
    label: "Linux (64 bits)",
    suffix: "linux-x64",
    bunTarget: "bun-linux-x64",
    bunPackage: "@oven/bun-linux-x64",
    bunBinary: "bin/bun",
    koffiPlatform: "linux-x64",
    koffiNode: "linux_x64/koffi.node",
  },
  {
    id: "windows-x64",
    platform: "windows",
    arch: "x64",
    label: "Windows (64 bits)",
    suffix: "windows-x64.exe",
    bunTarget: "bun-windows-x64",
    bunPackage: "@oven/bun-windows-x64",
    bunBinary: "bin/bun.exe",
    koffiPlatform: "win32-x64",
    koffiNode: "win32_x64/koffi.node",
  },
  {
    id: "darwin-arm64",
    platform: "macos",
    arch: "arm64",
    label: "macOS (Apple Silicon)",
    suffix: "macos-arm64",
    bunTarget: "bun-darwin-arm64",
    bunPackage: "@oven/bun-darwin-aarch64",
    bunBinary: "bin/bun",
    koffiPlatform: "darwin-arm64",
    koffiNode: "darwin_arm64/koffi.node",
  },
  {
    id: "darwin-x64",
    platform: "macos",
    arch: "x64",
    label: "macOS (Intel)",
    suffix: "macos-x64",
    bunTarget: "bun-darwin-x64",
    bunPackage: "@oven/bun-darwin-x64",
    bunBinary: "bin/bun",
    koffiPlatform: "darwin-x64",
    koffiNode: "darwin_x64/koffi.node",
  },
];

/** `--target` names: ours, and the file names' "macos-…" spelling. */
export function findTarget(name: string): DesktopTarget | undefined {
  return TARGETS.find((target) => target.id === name || target.suffix.replace(/\.exe$/, "") === name);
}

/** The koffi package of a target. */
export function koffiPackage(target: DesktopTarget): string {
  return `@koromix/koffi-${target.koffiPlatform}`;
}

function installedVersion(dir: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

/**
 * The folder of registry package `name@version` holding `file`: the project's node_modules when it
 * has that version with the file (the host's own packages), else the cache, filled once with
 * `npm pack` + `tar` (the npm client checks the tarball against the registry's integrity hash).
 */
export function registryPackage(name: string, version: string, file: string): string {
  const installed = path.join(ROOT, "node_modules", name);
  if (installedVersion(installed) === version && existsSync(path.join(installed, file))) return installed;
  const cached = path.join(CACHE_DIR, "packages", `${name.replace("/", "+")}@${version}`);
  if (existsSync(path.join(cached, file))) return cached;

  mkdirSync(path.dirname(cached), { recursive: true });
  const work = mkdtempSync(`${cached}.tmp-`);
  try {
    console.log(`Récupération de ${name}@${version} depuis le registre npm…`);
    const output = execFileSync("npm", ["pack", `${name}@${version}`, "--json", "--pack-destination", work], {
      cwd: work,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
      // npm is npm.cmd on Windows, which only a shell runs.
      shell: process.platform === "win32",
    });
    const [packed] = JSON.parse(output) as { filename: string }[];
    if (!packed) throw new Error(`npm pack ${name}@${version} n'a rien produit`);
    execFileSync("tar", ["-xzf", packed.filename, "-C", work], { cwd: work, stdio: "inherit" });
    rmSync(cached, { recursive: true, force: true });
    // Renamed only once complete: an interrupted fetch never looks like a cached package.
    renameSync(path.join(work, "package"), cached);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  if (!existsSync(path.join(cached, file))) throw new Error(`${name}@${version} ne contient pas ${file}`);
  return cached;
}

/** The Bun that runs the build: the one for this machine, from the registry like the targets'. */
export function hostBun(): string {
  const arch = process.arch === "arm64" ? "aarch64" : process.arch;
  const system = process.platform === "win32" ? "windows" : process.platform;
  const binary = process.platform === "win32" ? "bin/bun.exe" : "bin/bun";
  return path.join(registryPackage(`@oven/bun-${system}-${arch}`, BUN_VERSION, binary), binary);
}

/** The target's Bun runtime and koffi native module (absolute paths), fetched when missing. */
export function targetFiles(target: DesktopTarget): { runtime: string; koffiNode: string } {
  const bun = registryPackage(target.bunPackage, BUN_VERSION, target.bunBinary);
  const koffi = registryPackage(koffiPackage(target), KOFFI_VERSION, target.koffiNode);
  return { runtime: path.join(bun, target.bunBinary), koffiNode: path.join(koffi, target.koffiNode) };
}
