/**
 * The download copies of a desktop build (issue 15, docs/decisions/011; issue 29, decision 023): a `.br`
 * and a `.gz` beside each executable, of its bytes before the point where the server adds its address
 * (`server/download-splice.ts`), each flushed to a byte boundary before its last (empty) block so the
 * server can put the address there without recompressing anything.
 */
import { once } from "node:events";
import { createReadStream, createWriteStream, statSync } from "node:fs";
import { rename } from "node:fs/promises";
import type { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { constants, createBrotliCompress, createGzip } from "node:zlib";

/** How hard to compress: `full` for customers, `fast` for tests, `none` to skip. */
export type CompressionLevel = "full" | "fast" | "none";
export const COMPRESSION: Record<Exclude<CompressionLevel, "none">, { brotli: number; gzip: number }> = {
  // Measured on the Linux build (110 MB, docs/decisions/011): brotli 7 → 44.4 MB in ~10 s of CPU;
  // brotli 9 saves 1.1 MB more for ~6× the time (minutes per file on 2 shared cores); gzip is the
  // fallback for the rare browser without brotli.
  full: { brotli: 7, gzip: 9 },
  fast: { brotli: 5, gzip: 6 },
};

/**
 * Compresses the first `length` bytes of `file` into `output`, flushing (`flush`) before the end: the
 * stream then ends with an empty last block alone (brotli `03`, gzip `03 00` + footer), which the server
 * replaces with the address tail (issue 29, `server/download-splice.ts`).
 */
async function compressPrefix(
  file: string,
  length: number,
  compressor: Transform & { flush(kind: number, callback: () => void): void },
  flush: number,
  output: string,
): Promise<void> {
  const written = pipeline(compressor, createWriteStream(output));
  if (length > 0) {
    for await (const chunk of createReadStream(file, { start: 0, end: length - 1 })) {
      if (!compressor.write(chunk)) await once(compressor, "drain");
    }
  }
  await new Promise<void>((resolve) => compressor.flush(flush, resolve));
  compressor.end();
  await written;
}

/**
 * Writes `<file>.br` and `<file>.gz` of the file's first `length` bytes (all of it by default; streamed:
 * the executables are ~100 MB), each flushed before its end (see compressPrefix); returns their sizes.
 */
export async function compressFile(
  file: string,
  level: { brotli: number; gzip: number },
  length = statSync(file).size,
): Promise<{ br: number; gzip: number }> {
  await Promise.all([
    compressPrefix(
      file,
      length,
      createBrotliCompress({
        params: {
          [constants.BROTLI_PARAM_QUALITY]: level.brotli,
          // 16 MB window (the most a browser accepts without "large window" brotli).
          [constants.BROTLI_PARAM_LGWIN]: 24,
          [constants.BROTLI_PARAM_SIZE_HINT]: length,
        },
      }),
      constants.BROTLI_OPERATION_FLUSH,
      `${file}.br.tmp`,
    ),
    compressPrefix(file, length, createGzip({ level: level.gzip }), constants.Z_SYNC_FLUSH, `${file}.gz.tmp`),
  ]);
  await Promise.all([rename(`${file}.br.tmp`, `${file}.br`), rename(`${file}.gz.tmp`, `${file}.gz`)]);
  return { br: statSync(`${file}.br`).size, gzip: statSync(`${file}.gz`).size };
}
