/**
 * Issue 39 §1: the site's static files compressed once, at build time, so no request compresses what the
 * build already knew. Beside each compressible file of `build/client` (scripts, styles, SVG, fonts that
 * are not already compressed, JSON and web manifests) it writes `<file>.br` (brotli quality 11) and
 * `<file>.gz` (gzip level 9), the encodings `server/static-files.ts` serves with `Content-Encoding`.
 *
 * A file under `MIN_BYTES` or one an encoding does not shrink by at least 5 % gets no copy for that
 * encoding: it is served as it is. Pictures and videos (`media/`) are already compressed formats.
 * Run by `ensure-build.ts` after `react-router build`; `node scripts/precompress-assets.ts [folder]`
 * runs it alone and prints its figures.
 */
import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { compressBoth } from "#server/compression.ts";

/** Extensions worth compressing: text formats and uncompressed fonts. */
export const COMPRESSIBLE = new Set([
  ".js",
  ".mjs",
  ".css",
  ".svg",
  ".json",
  ".webmanifest",
  ".map",
  ".txt",
  ".xml",
  ".ttf",
  ".otf",
]);
/** Below this size (bytes) the headers weigh more than compression saves. */
export const MIN_BYTES = 1024;
/** An encoding is kept only when it is at most this fraction of the original's size. */
const KEEP_RATIO = 0.95;

/** What one run did: files compressed, bytes before and after (brotli, gzip), and its duration (ms). */
export type PrecompressReport = { files: number; bytes: number; brBytes: number; gzipBytes: number; ms: number };

/**
 * Writes the `.br` and `.gz` copies of every compressible file under `dir` (recursively), replacing copies
 * an earlier build left. Files are compressed a few at a time in libuv's thread pool.
 */
export async function precompressAssets(dir: string): Promise<PrecompressReport> {
  const started = performance.now();
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((entry) => entry.isFile() && COMPRESSIBLE.has(path.extname(entry.name)))
    .map((entry) => path.join(entry.parentPath, entry.name));
  const report: PrecompressReport = { files: 0, bytes: 0, brBytes: 0, gzipBytes: 0, ms: 0 };
  const queue = [...files];
  const worker = async () => {
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      const content = await readFile(file);
      // A copy from an earlier build must not outlive the file it was made from.
      await Promise.all([rm(`${file}.br`, { force: true }), rm(`${file}.gz`, { force: true })]);
      if (content.length < MIN_BYTES) continue;
      const { br, gzip } = await compressBoth(content);
      const keep = (encoded: Buffer) => encoded.length <= content.length * KEEP_RATIO;
      if (keep(br)) await writeFile(`${file}.br`, br);
      if (keep(gzip)) await writeFile(`${file}.gz`, gzip);
      report.files += 1;
      report.bytes += content.length;
      report.brBytes += keep(br) ? br.length : content.length;
      report.gzipBytes += keep(gzip) ? gzip.length : content.length;
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  report.ms = Math.round(performance.now() - started);
  return report;
}

if (import.meta.main) {
  const dir = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, "..", "build", "client"));
  const report = await precompressAssets(dir);
  const kb = (bytes: number) => `${Math.round(bytes / 1024)} Ko`;
  console.log(
    `Fichiers précompressés : ${report.files} (${kb(report.bytes)} → brotli ${kb(report.brBytes)}, gzip ${kb(report.gzipBytes)}) en ${report.ms} ms`,
  );
}
