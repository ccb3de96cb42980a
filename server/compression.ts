/**
 * The encodings of pre-rendered pages (issue 2), shared by the build step
 * that writes them ahead (`scripts/precompress.ts`) and the server, which
 * computes them itself for a page whose files are missing or stale
 * (`prerendered.ts`). Lives in `server/` so the runtime imports no build
 * script (issue 14).
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
