/**
 * JPEG encoding of screen rectangles (issue 26, "the app sees the screen"):
 * libjpeg-turbo's TurboJPEG 3 API (`tj3*`) through koffi.
 *
 * The encoder reads the captured BGRX buffer in place: a rectangle is the
 * address of its first pixel plus the picture's stride as the "pitch", so
 * nothing is copied before encoding (5–7 ms a 1080p picture, 0.1 ms a tile,
 * STACK-NOTES). Quality 70 by default, 4:2:0 chroma subsampling (colour at
 * half resolution: small files, text stays sharp in the luminance).
 *
 * The library comes from `turbojpeg-library.ts` (node_modules under Node,
 * embedded in the compiled executable). When it cannot load, `status()` says
 * so in French and `encode` throws. Windows uses GDI+ instead
 * (`windows-jpeg.ts`, chosen by `createJpegEncoder`).
 */
import type { Capture } from "#app/remote-support/screen-protocol.ts";
import type { Koffi } from "../input/koffi.ts";
import { loadKoffi } from "../input/koffi.ts";
import type { CapturedImage } from "./capturer.ts";
import { checkRect } from "./rect-check.ts";
import type { Rect } from "./tiles.ts";
import { JPEG_UNAVAILABLE, loadTurbojpeg } from "./turbojpeg-library.ts";

/** JPEG quality used when none is given (1 worst – 100 best). */
export const DEFAULT_JPEG_QUALITY = 70;

/** What the screen stream needs of an encoder (fakes in tests implement only this). */
export interface RectEncoder {
  /**
   * The JPEG of `rect` (px, inside the picture) of `image` (BGRX), at
   * `quality` (1–100). The bytes belong to the caller. Throws on failure.
   */
  encode(image: CapturedImage, rect: Rect, quality: number): Uint8Array;
}

/** The libjpeg-turbo encoder: `RectEncoder` plus its status and its end. */
export interface JpegEncoder extends RectEncoder {
  /** Whether the library loaded, or why not (French). */
  status(): Capture;
  /** Frees the library's state; the encoder is unusable afterwards. Idempotent. */
  close(): void;
}

/** A decoded JPEG: BGRX pixels (the X byte is 255), stride = width × 4. */
export interface JpegDecoder {
  /** Decodes `jpeg`; throws (with libjpeg-turbo's message) when it is not a valid JPEG. */
  decode(jpeg: Uint8Array): CapturedImage;
  close(): void;
}

// TurboJPEG 3 constants (turbojpeg.h).
const TJINIT_COMPRESS = 0;
const TJINIT_DECOMPRESS = 1;
const TJPARAM_QUALITY = 3;
const TJPARAM_SUBSAMP = 4;
const TJPARAM_JPEGWIDTH = 5;
const TJPARAM_JPEGHEIGHT = 6;
const TJSAMP_420 = 2;
const TJPF_BGRX = 3;

type Fn = (...args: unknown[]) => unknown;
type TurboJpeg = {
  koffi: Koffi;
  init: Fn;
  destroy: Fn;
  set: Fn;
  get: Fn;
  compress: Fn;
  decompressHeader: Fn;
  decompress: Fn;
  free: Fn;
  errorString: Fn;
};

let bound: TurboJpeg | string | undefined;

/** Binds the library once per process; a string is why it cannot be used. */
async function bind(): Promise<TurboJpeg | string> {
  if (bound !== undefined) return bound;
  try {
    const koffi = await loadKoffi();
    const { library } = loadTurbojpeg((file) => koffi.load(file));
    bound = {
      koffi,
      init: library.func("void *tj3Init(int initType)"),
      destroy: library.func("void tj3Destroy(void *handle)"),
      set: library.func("int tj3Set(void *handle, int param, int value)"),
      get: library.func("int tj3Get(void *handle, int param)"),
      compress: library.func(
        "int tj3Compress8(void *handle, const void *source, int width, int pitch, int height, int pixelFormat, " +
          "_Inout_ void **jpeg, _Inout_ size_t *jpegSize)",
      ),
      decompressHeader: library.func("int tj3DecompressHeader(void *handle, const void *jpeg, size_t jpegSize)"),
      decompress: library.func(
        "int tj3Decompress8(void *handle, const void *jpeg, size_t jpegSize, void *destination, int pitch, " +
          "int pixelFormat)",
      ),
      free: library.func("void tj3Free(void *buffer)"),
      errorString: library.func("const char *tj3GetErrorStr(void *handle)"),
    };
  } catch {
    bound = JPEG_UNAVAILABLE;
  }
  return bound;
}

function unavailable(reason: string): JpegEncoder {
  return {
    status: () => ({ ok: false, reason }),
    encode: () => {
      throw new Error(reason);
    },
    close: () => undefined,
  };
}

/**
 * The JPEG encoder of `platform` (default: this process's system), issue 26:
 * GDI+ on Windows (`windows-jpeg.ts`: libjpeg-turbo's package has no
 * Windows library), libjpeg-turbo elsewhere. Never throws: when the library
 * cannot load, the encoder's status says why (French) and `encode` throws it.
 */
export async function createJpegEncoder(platform: NodeJS.Platform = process.platform): Promise<JpegEncoder> {
  if (platform === "win32") return (await import("./windows-jpeg.ts")).createGdiplusJpegEncoder();
  const tj = await bind();
  if (typeof tj === "string") return unavailable(tj);
  const handle: unknown = tj.init(TJINIT_COMPRESS);
  if (!handle) return unavailable(JPEG_UNAVAILABLE);
  tj.set(handle, TJPARAM_SUBSAMP, TJSAMP_420);
  let quality = 0;
  // The library's output buffer, kept between calls: it grows to the largest JPEG and is reused.
  const output: unknown[] = [null];
  const size = [0];
  let open = true;

  return {
    status: () => ({ ok: true }),
    encode(image, rect, wanted) {
      if (!open) throw new Error("L'encodeur JPEG est fermé.");
      checkRect(image, rect);
      const q = Math.min(100, Math.max(1, Math.round(wanted)));
      if (q !== quality) {
        tj.set(handle, TJPARAM_QUALITY, q);
        quality = q;
      }
      const first = image.data.subarray(rect.y * image.stride + rect.x * 4);
      const failed = tj.compress(handle, first, rect.w, image.stride, rect.h, TJPF_BGRX, output, size) !== 0;
      if (failed) throw new Error(`Encodage JPEG impossible : ${String(tj.errorString(handle))}`);
      const bytes = Number(size[0]);
      // A copy: the library's buffer is overwritten by the next call.
      return new Uint8Array(tj.koffi.view(output[0], bytes)).slice();
    },
    close() {
      if (!open) return;
      open = false;
      if (output[0]) tj.free(output[0]);
      tj.destroy(handle);
    },
  };
}

/**
 * A libjpeg-turbo decoder (issue 26), used to check encoded pictures.
 * Throws `JPEG_UNAVAILABLE` (French) when the library cannot load.
 */
export async function createJpegDecoder(): Promise<JpegDecoder> {
  const tj = await bind();
  if (typeof tj === "string") throw new Error(tj);
  const handle: unknown = tj.init(TJINIT_DECOMPRESS);
  if (!handle) throw new Error(JPEG_UNAVAILABLE);
  let open = true;
  const fail = (): never => {
    throw new Error(`Décodage JPEG impossible : ${String(tj.errorString(handle))}`);
  };
  return {
    decode(jpeg) {
      if (!open) throw new Error("Le décodeur JPEG est fermé.");
      if (tj.decompressHeader(handle, jpeg, jpeg.byteLength) !== 0) fail();
      const width = tj.get(handle, TJPARAM_JPEGWIDTH) as number;
      const height = tj.get(handle, TJPARAM_JPEGHEIGHT) as number;
      const stride = width * 4;
      const data = new Uint8Array(stride * height);
      if (tj.decompress(handle, jpeg, jpeg.byteLength, data, stride, TJPF_BGRX) !== 0) fail();
      return { width, height, stride, data };
    },
    close() {
      if (!open) return;
      open = false;
      tj.destroy(handle);
    },
  };
}
