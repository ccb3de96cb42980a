/**
 * Whether Windows has the WebView2 runtime the window needs (issue 36 §3). webview 0.12 on Windows is
 * WebView2: without its runtime `webview_create` fails, and the app used to blame a missing display.
 * Checked as Microsoft documents it (« Detect if a WebView2 Runtime is already installed »): the `pv`
 * value (the installed version) under the EdgeUpdate client key of the runtime, per machine (64-bit
 * Windows: the WOW6432Node view) or per user; absent, empty or `0.0.0.0` means not installed. A fixed
 * version named by `WEBVIEW2_BROWSER_EXECUTABLE_FOLDER` counts as installed. The registry read is given
 * (`webview-native.ts` reads it with `bun:ffi`), so this is tested on any system.
 */

/** The runtime's client id in EdgeUpdate's registry. */
export const WEBVIEW2_CLIENT = "{F3017226-FE2A-4295-8BDF-00C3A9A7E4C5}";

/** The keys to read, in order: root (`HKLM`, `HKCU`) and sub-key, each with the value `pv`. */
export const WEBVIEW2_KEYS: readonly { root: "HKLM" | "HKCU"; key: string }[] = [
  { root: "HKLM", key: `SOFTWARE\\WOW6432Node\\Microsoft\\EdgeUpdate\\Clients\\${WEBVIEW2_CLIENT}` },
  { root: "HKLM", key: `SOFTWARE\\Microsoft\\EdgeUpdate\\Clients\\${WEBVIEW2_CLIENT}` },
  { root: "HKCU", key: `Software\\Microsoft\\EdgeUpdate\\Clients\\${WEBVIEW2_CLIENT}` },
];

/** What the customer reads when the runtime is missing (French; the app then uses its console). */
export const WEBVIEW2_MISSING =
  "WebView2 n'est pas installé : la fenêtre du logiciel ne peut pas s'ouvrir, il fonctionne donc dans cette " +
  "console. Pour avoir la fenêtre, installez « Microsoft Edge WebView2 Runtime » depuis le site de Microsoft " +
  "(Windows 11 l'a déjà ; sur Windows 10, une mise à jour de Microsoft Edge l'installe), puis relancez le logiciel.";

/**
 * The installed runtime's version, or null when none is installed. `read(root, key)` gives the `pv`
 * string value of a key, or null when the key or value is missing.
 */
export function webview2Version(
  read: (root: "HKLM" | "HKCU", key: string) => string | null,
  env: NodeJS.ProcessEnv,
): string | null {
  if (env.WEBVIEW2_BROWSER_EXECUTABLE_FOLDER) return "fixed";
  for (const { root, key } of WEBVIEW2_KEYS) {
    const version = read(root, key)?.trim();
    if (version && version !== "0.0.0.0") return version;
  }
  return null;
}
