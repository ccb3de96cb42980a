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
