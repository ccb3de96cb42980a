/**
 * Entry point of the desktop support app (issue 15), the file given to
 * `bun build --compile` (one executable per system) and runnable as is with
 * Node 24 or Bun: `node desktop/src/main.ts --help`.
 *
 * Server address (issue 29, docs/decisions/023): the build does not know
 * it. The server that serves the download writes its own PUBLIC_URL into the
 * file (a trailer after the executable; on macOS Apple Silicon, a zone of
 * the bundle defined at build time as `__ATELIER_ADDRESS_ZONE__`), read at
 * start by `embedded-address.ts`. `--server` wins over `ATELIER_SERVER`,
 * which wins over the download's address; with none (tests,
 * `node desktop/src/main.ts`) the app asks for `--server` in French.
 *
 * TLS: the runtime's normal certificate checks, with no switch to turn them
 * off. Tests trust their own CA through NODE_EXTRA_CA_CERTS (Node and Bun).
 * Plain http:// is accepted for localhost only.
 *
 * Issue 27: the app shows a window (a webview) when it can, else zenity's
 * dialogs (Linux), else the terminal (`views/choose.ts`, decision 022). The
 * window is this same program started again with `--fenetre` as its first
 * argument (`views/window-child.ts`, Bun only): handled here before anything
 * else is loaded. Everything else is `start.ts`.
 *
 * Issue 36 §1: the native files the executable embeds are written to one
 * private folder per run and removed at exit; on Windows, where a loaded DLL
 * stays locked until the process ends, by this same program started again
 * with `--nettoyer <dossier>` (`native/private-folder.ts`).
 *
 * Started without a terminal (a double-click in a Linux file manager) and
 * with neither window nor dialogs, it opens a terminal and runs there; in a
 * window that closes with it, it waits for Entrée before exiting
 * (`launcher.ts`, issue 26).
 *
 * Runtime needs: koffi's native part (`@koromix/koffi-<os>-<arch>`), the
 * embedded libjpeg-turbo (issue 26), and per system: Linux libX11.so.6 +
 * libXtst.so.6 (+ libXrandr.so.2, libXext.so.6 for XShm, libXfixes.so.3 for
 * the pointer in the picture, all optional); for the window, the embedded
 * webview library (GTK 4 + WebKitGTK 6 on Linux, WebView2 on Windows);
 * Windows user32.dll; macOS CoreGraphics, CoreFoundation and
 * ApplicationServices frameworks. See desktop/README.md.
 */
import { CLEANER_FLAG } from "./native/private-folder.ts";
import { WINDOW_FLAG } from "./views/window-state.ts";

if (process.argv[2] === CLEANER_FLAG) {
  // Issue 36 §1: a copy started at exit on Windows to remove the run's native files once they are free.
  const { runCleaner } = await import("./native/private-folder.ts");
  process.exit(await runCleaner(process.argv.slice(3)));
} else if (process.argv[2] === WINDOW_FLAG) {
  const { runWindowChild } = await import("./views/window-child.ts");
  process.exit(await runWindowChild(process.argv.slice(3)));
} else {
  await import("./start.ts");
}
