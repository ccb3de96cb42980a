/**
 * Build step (react-router.config.ts `buildEnd`): writes `index.html.br` and `index.html.gz` beside
 * every pre-rendered page, at maximum compression, so the server only reads them at start
 * (brotli quality 11 costs ~70 ms a page: too slow for start-up, fine once per build).
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { compressBoth } from "#server/compression.ts";

/** Writes the `.br` and `.gz` files for every `index.html` under `dir`; returns how many pages. */
export async function precompressDir(dir: string): Promise<number> {
  const files = (await readdir(dir, { withFileTypes: true, recursive: true }))
    .filter((entry) => entry.isFile() && entry.name === "index.html")
    .map((entry) => path.join(entry.parentPath, entry.name));
  await Promise.all(
    files.map(async (file) => {
      const { br, gzip } = await compressBoth(await readFile(file));
      await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gzip)]);
    }),
  );
  return files.length;
}
