/**
 * The encodings of the public pages kept in memory (issue 2; `page-cache.ts` since issue 29), computed
 * once per render in libuv's thread pool, off the event loop.
 */
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Brotli (quality 11) and gzip (level 9) encodings of `content`. */
export async function compressBoth(content: Buffer): Promise<{ br: Buffer; gzip: Buffer }> {
  const [br, gzipped] = await Promise.all([
    brotli(content, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.length },
    }),
    gz(content, { level: 9 }),
  ]);
  return { br, gzip: gzipped };
}

/**
 * Brotli (quality 5) and gzip (level 6) encodings of `content`: a few ms for a 180 KB page where quality 11
 * takes ~70 ms, for a page's first visitor; `compressBoth` replaces them afterwards (`page-cache.ts`).
 */
export async function compressQuick(content: Buffer): Promise<{ br: Buffer; gzip: Buffer }> {
  const [br, gzipped] = await Promise.all([
    brotli(content, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: content.length },
    }),
    gz(content, { level: 6 }),
  ]);
  return { br, gzip: gzipped };
}
