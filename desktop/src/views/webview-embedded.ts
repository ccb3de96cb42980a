/**
 * The webview library built into the desktop executable (issue 27, as
 * `capture/turbojpeg-embedded.ts` for libjpeg-turbo), or null. Always null in
 * the sources: under Bun from the sources the library is read from
 * `node_modules/webview-bun/build/`. `scripts/desktop-bundle.ts` replaces this
 * module, for each target, with
 * `import file from "<the target's library>" with { type: "file" }`, so Bun
 * embeds that system's library only and `file` is its path inside the
 * executable.
 */
export const EMBEDDED_WEBVIEW: { file: string; name: string } | null = null;
