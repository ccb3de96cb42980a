/**
 * Build step (react-router.config.ts `buildEnd`): writes `index.html.br` and `index.html.gz` beside
 * every pre-rendered page, at maximum compression, so the server only reads them at start
 * (brotli quality 11 costs ~70 ms a page: too slow for start-up, fine once per build).
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Brotli (quality 11) and gzip (level 9) encodings of `content`. */
export async function compressBoth(content: Buffer): Promise<{ br: Buffer; gzip: Buffer }> {
  const [br, gzipped] = await Promise.all([
    brotli(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.length } }),
    gz(content, { level: 9 }),
  ]);
  return { br, gzip: gzipped };
}

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
