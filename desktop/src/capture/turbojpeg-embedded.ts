/**
 * The libjpeg-turbo library built into the desktop executable (issue 26,
 * decision 011), or null. Always null in the sources: under Node the library
 * is read from node_modules. `scripts/desktop-bundle.ts` replaces this module,
 * when it compiles a target that has the library, with
 * `import file from "<the target's library>" with { type: "file" }`, so Bun
 * embeds it and `file` is its path inside the executable.
 */
export const EMBEDDED_TURBOJPEG: { file: string; name: string } | null = null;
