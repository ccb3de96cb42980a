/**
 * Where the webview library comes from (issue 27, decision 022): the
 * registry package `webview-bun` 2.4.0 ships webview 0.12 prebuilt for each
 * system, and only those files are used (its TypeScript needs the library
 * at import time, from its own folder). `scripts/desktop-bundle.ts` embeds
 * the target's file; `webview-native.ts` loads it. Pure.
 */

/** The registry package that ships the library. */
export const WEBVIEW_PACKAGE = "webview-bun";

/**
 * The library's path inside the package for a system (Node's names:
 * "linux", "win32", "darwin"; "x64", "arm64"), or null when it has none.
 * The macOS file is universal (x64 and arm64).
 */
export function webviewInPackage(platform: string, arch: string): string | null {
  if (platform === "linux" && (arch === "x64" || arch === "arm64")) return `build/libwebview-${arch}.so`;
  if (platform === "win32" && arch === "x64") return "build/libwebview.dll";
  if (platform === "darwin" && (arch === "x64" || arch === "arm64")) return "build/libwebview.dylib";
  return null;
}
