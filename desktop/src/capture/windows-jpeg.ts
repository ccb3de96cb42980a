/**
 * JPEG encoding on Windows (issue 26, "the app sees the screen"): GDI+'s
 * flat API through `GdiplusApi` (`windows-jpeg-native.ts`), behind the same
 * `JpegEncoder` interface as libjpeg-turbo (`jpeg.ts`), whose registry
 * package ships no `turbojpeg.dll`. GDI+ is part of every Windows since XP:
 * nothing to download or embed.
 *
 * One `encode`: a GDI+ bitmap over the rectangle's first pixel with the
 * picture's stride (`GdipCreateBitmapFromScan0`, PixelFormat32bppRGB: B, G, R
 * and an ignored byte, read in place), saved as JPEG with the EncoderQuality
 * parameter into an `IStream` over global memory (`CreateStreamOnHGlobal`),
 * whose bytes are read back (`GetHGlobalFromStream`, `GlobalLock`) and copied;
 * the stream (`IStream::Release`) and the bitmap (`GdipDisposeImage`) are
 * released whatever happens. GDI+ picks its chroma subsampling itself (4:2:0).
 */
import type { Capture } from "#app/remote-support/screen-protocol.ts";
import type { JpegEncoder } from "./jpeg.ts";
import { checkRect } from "./rect-check.ts";
import type { EncoderParameters, GdiplusApi, GdiplusOpenResult } from "./windows-jpeg-native.ts";
import { GDIPLUS_UNAVAILABLE, parseGuid } from "./windows-jpeg-native.ts";

/** GDI+'s built-in JPEG encoder (CLSID). */
export const JPEG_ENCODER_CLSID = parseGuid("557CF401-1A04-11D3-9A73-0000F81EF32E");
/** The EncoderQuality parameter (0–100, a ULONG). */
export const ENCODER_QUALITY = parseGuid("1D5BE4B5-FA4A-452D-9CDD-5DB35105E7EB");
/** PixelFormat32bppRGB: 32 bits a pixel, B, G, R in memory order, the fourth byte ignored. */
export const PIXEL_FORMAT_32BPP_RGB = 0x00022009;
const ENCODER_PARAMETER_VALUE_TYPE_LONG = 4;
const STREAM_SEEK_END = 2;
const CLOSED = "L'encodeur JPEG est fermé.";

function unavailable(reason: string): JpegEncoder {
  return {
    status: () => ({ ok: false, reason }),
    encode: () => {
      throw new Error(reason);
    },
    close: () => undefined,
  };
}

/** The EncoderParameters of one JPEG at `quality` (1–100). */
export function qualityParameters(quality: number): EncoderParameters {
  return {
    Count: 1,
    Parameter: [
      { Guid: ENCODER_QUALITY, NumberOfValues: 1, Type: ENCODER_PARAMETER_VALUE_TYPE_LONG, Value: [quality] },
    ],
  };
}

/** A French error naming the call that failed and its GDI+ status or HRESULT. */
function failure(call: string, code: number): Error {
  const hex = code < 0 ? `0x${(code >>> 0).toString(16).toUpperCase()}` : String(code);
  return new Error(`Encodage JPEG impossible : ${call} a échoué (code ${hex}).`);
}

/** The bytes the stream holds, copied out of its global memory. */
function readStream(api: GdiplusApi, stream: unknown): Uint8Array {
  const memory: unknown[] = [null];
  const got = api.GetHGlobalFromStream(stream, memory);
  if (got !== 0 || !memory[0]) throw failure("GetHGlobalFromStream", got);
  const allocated = api.GlobalSize(memory[0]);
  // The stream's end is the JPEG's length; the memory block may be larger.
  const end = [0];
  const length = api.IStream_Seek(stream, 0, STREAM_SEEK_END, end) === 0 ? Math.min(end[0]!, allocated) : allocated;
  if (length <= 0) throw new Error("Encodage JPEG impossible : GDI+ n'a rien écrit.");
  const address = api.GlobalLock(memory[0]);
  if (!address) throw new Error("Encodage JPEG impossible : la mémoire du flux est inaccessible.");
  try {
    return api.view(address, length).slice();
  } finally {
    api.GlobalUnlock(memory[0]);
  }
}

/** Options of `createGdiplusJpegEncoder`; `open` replaces the real GDI+ in tests. */
export type GdiplusEncoderOptions = { open?: () => Promise<GdiplusOpenResult> };

/**
 * The Windows JPEG encoder (issue 26): `encode(image, rect, quality)` gives
 * the JPEG of `rect` (px, inside the BGRX picture) at `quality` (1–100,
 * rounded and clamped), a copy belonging to the caller; it throws a
 * `RangeError` for a rectangle outside the picture and a French `Error` when
 * a GDI+/COM call fails. Never throws itself: when GDI+ cannot load or
 * start, the status says why (French) and `encode` throws it. `close` shuts
 * GDI+ down (idempotent).
 */
export async function createGdiplusJpegEncoder(options: GdiplusEncoderOptions = {}): Promise<JpegEncoder> {
  const open = options.open ?? (async () => (await import("./windows-jpeg-native.ts")).openGdiplus());
  const opened = await open();
  if ("reason" in opened) return unavailable(opened.reason);
  const api = opened.api;
  const token: unknown[] = [null];
  const input = { GdiplusVersion: 1, DebugEventCallback: null, SuppressBackgroundThread: 0, SuppressExternalCodecs: 0 };
  if (api.GdiplusStartup(token, input, null) !== 0) return unavailable(GDIPLUS_UNAVAILABLE);
  let running = true;

  return {
    status: (): Capture => ({ ok: true }),
    encode(image, rect, wanted) {
      if (!running) throw new Error(CLOSED);
      checkRect(image, rect);
      const quality = Math.min(100, Math.max(1, Math.round(wanted)));
      // In place: the bitmap's first pixel is the rectangle's, rows `stride` bytes apart.
      const first = image.data.subarray(rect.y * image.stride + rect.x * 4);
      const bitmap: unknown[] = [null];
      const created = api.GdipCreateBitmapFromScan0(
        rect.w,
        rect.h,
        image.stride,
        PIXEL_FORMAT_32BPP_RGB,
        first,
        bitmap,
      );
      if (created !== 0 || !bitmap[0]) throw failure("GdipCreateBitmapFromScan0", created);
      try {
        const stream: unknown[] = [null];
        const made = api.CreateStreamOnHGlobal(null, true, stream);
        if (made !== 0 || !stream[0]) throw failure("CreateStreamOnHGlobal", made);
        try {
          const saved = api.GdipSaveImageToStream(bitmap[0], stream[0], JPEG_ENCODER_CLSID, qualityParameters(quality));
          if (saved !== 0) throw failure("GdipSaveImageToStream", saved);
          return readStream(api, stream[0]);
        } finally {
          // Frees the global memory too (deleteOnRelease).
          api.IStream_Release(stream[0]);
        }
      } finally {
        api.GdipDisposeImage(bitmap[0]);
      }
    },
    close() {
      if (!running) return;
      running = false;
      api.GdiplusShutdown(token[0]);
    },
  };
}
