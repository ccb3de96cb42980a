/**
 * The Windows GDI+ JPEG encoder (issue 26) over a fake GdiplusApi: the
 * bitmap made over the rectangle in place (stride, pixel format), the JPEG
 * encoder and its quality parameter, the stream read back to its end (not to
 * the end of its memory block), every stream and bitmap released, failures
 * in French. Struct layouts, GUID bytes, declarations and the COM vtable
 * calls are checked with koffi (the vtable against a native fake object).
 */
import { afterAll, describe, expect, it } from "vitest";
import { loadKoffi } from "../input/koffi.ts";
import { createJpegEncoder } from "./jpeg.ts";
import { fillRect, makeImage } from "./test-images.ts";
import type { EncoderParameters, GdiplusApi, Guid } from "./windows-jpeg-native.ts";
import {
  comMethod,
  GDIPLUS_FUNCTIONS,
  GDIPLUS_UNAVAILABLE,
  gdiplusTypes,
  KERNEL32_FUNCTIONS,
  OLE32_FUNCTIONS,
  VTABLE_SLOT,
  withNativeValues,
} from "./windows-jpeg-native.ts";
import {
  createGdiplusJpegEncoder,
  ENCODER_QUALITY,
  JPEG_ENCODER_CLSID,
  PIXEL_FORMAT_32BPP_RGB,
  qualityParameters,
} from "./windows-jpeg.ts";

type Bitmap = { width: number; height: number; stride: number; scan0: Uint8Array };

/**
 * A fake GDI+: "JPEG" = FF D8, the bitmap's width and height, the B G R of
 * its first pixel, the quality, FF D9; written at the start of a 64-byte
 * global memory block (larger than the stream, as real blocks may be).
 */
function fakeGdiplus(fail: { save?: number; stream?: number; seek?: boolean } = {}) {
  const calls: string[] = [];
  const blocks = new Map<string, { memory: Uint8Array; length: number }>();
  const saved: { encoder: Guid; parameters: EncoderParameters }[] = [];
  let next = 1;
  const api: GdiplusApi = {
    GdiplusStartup(token, input, output) {
      calls.push(`GdiplusStartup(version ${input.GdiplusVersion}, ${output})`);
      token[0] = "token";
      return 0;
    },
    GdiplusShutdown: (token) => void calls.push(`GdiplusShutdown(${String(token)})`),
    GdipCreateBitmapFromScan0(width, height, stride, format, scan0, bitmap) {
      calls.push(
        `GdipCreateBitmapFromScan0(${width}, ${height}, ${stride}, 0x${format.toString(16)}, +${scan0.byteOffset})`,
      );
      bitmap[0] = { width, height, stride, scan0 } satisfies Bitmap;
      return 0;
    },
    GdipSaveImageToStream(image, stream, encoder, parameters) {
      calls.push(`GdipSaveImageToStream(${String(stream)})`);
      saved.push({ encoder, parameters: structuredClone(parameters) });
      if (fail.save) return fail.save;
      const { width, height, scan0 } = image as Bitmap;
      const jpeg = [0xff, 0xd8, width, height, scan0[0]!, scan0[1]!, scan0[2]!, parameters.Parameter[0].Value[0]!];
      const block = blocks.get(stream as string)!;
      block.memory.set([...jpeg, 0xff, 0xd9]);
      block.length = jpeg.length + 2;
      return 0;
    },
    GdipDisposeImage: () => (calls.push("GdipDisposeImage"), 0),
    CreateStreamOnHGlobal(memory, deleteOnRelease, stream) {
      calls.push(`CreateStreamOnHGlobal(${memory}, ${deleteOnRelease})`);
      if (fail.stream) return fail.stream;
      const name = `stream${next++}`;
      blocks.set(name, { memory: new Uint8Array(64).fill(0xee), length: 0 });
      stream[0] = name;
      return 0;
    },
    GetHGlobalFromStream: (stream, memory) => ((memory[0] = `${String(stream)}-memory`), 0),
    GlobalLock: (memory) => (calls.push("GlobalLock"), `${String(memory)}-address`),
    GlobalUnlock: () => (calls.push("GlobalUnlock"), false),
    GlobalSize: () => 64,
    IStream_Seek(stream, move, origin, position) {
      calls.push(`IStream_Seek(${String(stream)}, ${move}, ${origin})`);
      if (fail.seek) return -2147467259; // E_FAIL
      position[0] = blocks.get(stream as string)!.length;
      return 0;
    },
    IStream_Release: (stream) => (calls.push(`IStream_Release(${String(stream)})`), 0),
    view: (pointer, bytes) => blocks.get(String(pointer).replace(/-memory-address$/, ""))!.memory.subarray(0, bytes),
  };
  return { api, calls, saved, blocks };
}

/** 8 × 4 with a 16-byte padded stride; the pixel at (3, 1) is (10, 20, 30). */
function picture() {
  const image = makeImage(8, 4, [200, 200, 200], 16);
  fillRect(image, 3, 1, 1, 1, [10, 20, 30]);
  return image;
}

describe("GDI+ JPEG encoder (fake gdiplus/ole32/kernel32)", () => {
  it("encodes a rectangle in place through the stride, at the quality asked, and releases everything", async () => {
    const { api, calls, saved } = fakeGdiplus();
    const encoder = await createGdiplusJpegEncoder({ open: async () => ({ api }) });
    expect(encoder.status()).toEqual({ ok: true });
    const jpeg = encoder.encode(picture(), { x: 3, y: 1, w: 4, h: 2 }, 70);
    // JPEG of 4 × 2 whose first pixel is the rectangle's (B, G, R), quality 70; only the bytes the stream holds.
    expect([...jpeg]).toEqual([0xff, 0xd8, 4, 2, 30, 20, 10, 70, 0xff, 0xd9]);
    expect(calls).toEqual([
      "GdiplusStartup(version 1, null)",
      // stride 8 × 4 + 16 = 48 bytes; the first pixel 1 × 48 + 3 × 4 = 60 bytes in.
      `GdipCreateBitmapFromScan0(4, 2, 48, 0x${PIXEL_FORMAT_32BPP_RGB.toString(16)}, +60)`,
      "CreateStreamOnHGlobal(null, true)",
      "GdipSaveImageToStream(stream1)",
      "IStream_Seek(stream1, 0, 2)",
      "GlobalLock",
      "GlobalUnlock",
      "IStream_Release(stream1)",
      "GdipDisposeImage",
    ]);
    expect(saved[0]!.encoder).toEqual(JPEG_ENCODER_CLSID);
    expect(saved[0]!.parameters).toEqual({
      Count: 1,
      Parameter: [{ Guid: ENCODER_QUALITY, NumberOfValues: 1, Type: 4, Value: [70] }],
    });
    encoder.close();
    encoder.close();
    expect(calls.filter((call) => call.startsWith("GdiplusShutdown"))).toEqual(["GdiplusShutdown(token)"]);
    expect(() => encoder.encode(picture(), { x: 0, y: 0, w: 1, h: 1 }, 70)).toThrow(/fermé/);
  });

  it("returns a copy of the stream's bytes, and clamps the quality to 1–100", async () => {
    const { api, saved, blocks } = fakeGdiplus();
    const encoder = await createGdiplusJpegEncoder({ open: async () => ({ api }) });
    const jpeg = encoder.encode(picture(), { x: 0, y: 0, w: 8, h: 4 }, 0);
    blocks.get("stream1")!.memory.fill(0);
    expect(jpeg[0]).toBe(0xff);
    encoder.encode(picture(), { x: 0, y: 0, w: 8, h: 4 }, 150);
    encoder.encode(picture(), { x: 0, y: 0, w: 8, h: 4 }, 69.6);
    expect(saved.map((call) => call.parameters.Parameter[0].Value[0])).toEqual([1, 100, 70]);
  });

  it("reads the whole memory block when the stream cannot tell its end", async () => {
    const { api } = fakeGdiplus({ seek: true });
    const encoder = await createGdiplusJpegEncoder({ open: async () => ({ api }) });
    expect(encoder.encode(picture(), { x: 0, y: 0, w: 8, h: 4 }, 70)).toHaveLength(64);
  });

  it("throws in French when saving fails, still releasing the stream and the bitmap", async () => {
    const { api, calls } = fakeGdiplus({ save: 7 });
    const encoder = await createGdiplusJpegEncoder({ open: async () => ({ api }) });
    expect(() => encoder.encode(picture(), { x: 0, y: 0, w: 8, h: 4 }, 70)).toThrow(
      "Encodage JPEG impossible : GdipSaveImageToStream a échoué (code 7).",
    );
    expect(calls.slice(-2)).toEqual(["IStream_Release(stream1)", "GdipDisposeImage"]);
  });

  it("shows a failed HRESULT in hexadecimal, and disposes of the bitmap", async () => {
    const { api, calls } = fakeGdiplus({ stream: -2147024882 });
    const encoder = await createGdiplusJpegEncoder({ open: async () => ({ api }) });
    expect(() => encoder.encode(picture(), { x: 0, y: 0, w: 8, h: 4 }, 70)).toThrow(/0x8007000E/);
    expect(calls.at(-1)).toBe("GdipDisposeImage");
  });

  it("refuses a rectangle outside the picture before calling GDI+", async () => {
    const { api, calls } = fakeGdiplus();
    const encoder = await createGdiplusJpegEncoder({ open: async () => ({ api }) });
    expect(() => encoder.encode(picture(), { x: 4, y: 0, w: 8, h: 4 }, 70)).toThrow(RangeError);
    expect(calls).toEqual(["GdiplusStartup(version 1, null)"]);
  });

  it("reports GDI+ missing or refusing to start in its status", async () => {
    const missing = await createGdiplusJpegEncoder({ open: async () => ({ reason: GDIPLUS_UNAVAILABLE }) });
    expect(missing.status()).toEqual({ ok: false, reason: GDIPLUS_UNAVAILABLE });
    const { api } = fakeGdiplus();
    api.GdiplusStartup = () => 18; // GdiplusNotInitialized
    const refused = await createGdiplusJpegEncoder({ open: async () => ({ api }) });
    expect(refused.status()).toEqual({ ok: false, reason: GDIPLUS_UNAVAILABLE });
    expect(() => refused.encode(picture(), { x: 0, y: 0, w: 1, h: 1 }, 70)).toThrow(GDIPLUS_UNAVAILABLE);
  });

  it("is what createJpegEncoder gives on Windows (here gdiplus.dll is missing: its reason)", async () => {
    const encoder = await createJpegEncoder("win32");
    expect(encoder.status()).toEqual({ ok: false, reason: GDIPLUS_UNAVAILABLE });
  });
});

describe("GDI+ structs, GUIDs and COM calls (koffi)", () => {
  const registered: unknown[] = [];
  afterAll(async () => {
    const koffi = await loadKoffi();
    for (const callback of registered) koffi.unregister(callback as bigint);
  });

  it("lays the structs out as x64 Windows does, GUIDs in their little-endian bytes", async () => {
    const koffi = await loadKoffi();
    const t = gdiplusTypes(koffi);
    expect(koffi.sizeof(t.GUID)).toBe(16);
    const guid = Buffer.alloc(16);
    koffi.encode(guid, t.GUID, JPEG_ENCODER_CLSID);
    expect(guid.toString("hex")).toBe("01f47c55041ad3119a730000f81ef32e");
    koffi.encode(guid, t.GUID, ENCODER_QUALITY);
    expect(guid.toString("hex")).toBe("b5e45b1d4afa2d459cdd5db35105e7eb");
    expect(koffi.sizeof(t.GdiplusStartupInput)).toBe(24);
    expect(koffi.offsetof(t.GdiplusStartupInput, "SuppressBackgroundThread")).toBe(16);
    expect(koffi.sizeof(t.EncoderParameter)).toBe(32);
    expect(koffi.offsetof(t.EncoderParameter, "NumberOfValues")).toBe(16);
    expect(koffi.offsetof(t.EncoderParameter, "Type")).toBe(20);
    expect(koffi.offsetof(t.EncoderParameter, "Value")).toBe(24);
    expect(koffi.sizeof(t.EncoderParameters)).toBe(40);
    expect(koffi.offsetof(t.EncoderParameters, "Parameter")).toBe(8);
  });

  it("passes the quality to GDI+ through a pointer to a ULONG, freed after the call", async () => {
    const koffi = await loadKoffi();
    const t = gdiplusTypes(koffi);
    const bytes = Buffer.alloc(40);
    let pointed = 0;
    const result = withNativeValues(koffi, qualityParameters(65), (native) => {
      koffi.encode(bytes, t.EncoderParameters, native);
      const [parameter] = native.Parameter as { Value: unknown }[];
      pointed = koffi.decode(parameter!.Value, "uint32_t");
      return 0;
    });
    expect(result).toBe(0);
    expect(bytes.readUInt32LE(0)).toBe(1); // Count
    expect(bytes.subarray(8, 24).toString("hex")).toBe("b5e45b1d4afa2d459cdd5db35105e7eb"); // EncoderQuality
    expect([bytes.readUInt32LE(24), bytes.readUInt32LE(28)]).toEqual([1, 4]); // one value, of type Long
    expect(bytes.readBigUInt64LE(32)).not.toBe(0n); // the pointer to it
    expect(pointed).toBe(65);
  });

  it("declares every function in a form koffi parses", async () => {
    const koffi = await loadKoffi();
    gdiplusTypes(koffi);
    const all = { ...GDIPLUS_FUNCTIONS, ...OLE32_FUNCTIONS, ...KERNEL32_FUNCTIONS };
    for (const declaration of Object.values(all)) {
      const renamed = declaration.replace(/ (\w+)\(/, " AtelierCheck$1(");
      expect(() => koffi.proto(renamed), declaration).not.toThrow();
    }
  });

  it("calls IStream::Release and IStream::Seek through the object's vtable", async () => {
    const koffi = await loadKoffi();
    const t = gdiplusTypes(koffi);
    const seen: unknown[][] = [];
    const release = koffi.register(
      (self: unknown) => (seen.push(["Release", koffi.address(self)]), 0),
      koffi.pointer(koffi.proto("uint32_t __stdcall AtelierFakeRelease(void *self)")),
    );
    const seek = koffi.register(
      (self: unknown, move: number, origin: number, position: unknown) => {
        seen.push(["Seek", koffi.address(self), Number(move), origin]);
        koffi.encode(position, "uint64_t", 1234);
        return 0;
      },
      koffi.pointer(
        koffi.proto("int32_t __stdcall AtelierFakeSeek(void *self, int64_t move, uint32_t origin, void *position)"),
      ),
    );
    registered.push(release, seek);
    // A fake IStream: its first pointer is a vtable of 14 slots, only Release and Seek filled.
    const vtable: unknown = koffi.alloc("void *", 14);
    koffi.encode(vtable, VTABLE_SLOT.Release * 8, "void *", release);
    koffi.encode(vtable, VTABLE_SLOT.Seek * 8, "void *", seek);
    const stream: unknown = koffi.alloc("void *", 1);
    koffi.encode(stream, 0, "void *", vtable);
    const position = [0];
    expect(comMethod(koffi, stream, VTABLE_SLOT.Seek, t.IStreamSeek, 0, 2, position)).toBe(0);
    expect(Number(position[0])).toBe(1234);
    expect(comMethod(koffi, stream, VTABLE_SLOT.Release, t.IUnknownRelease)).toBe(0);
    expect(seen).toEqual([
      ["Seek", koffi.address(stream), 0, 2],
      ["Release", koffi.address(stream)],
    ]);
    koffi.free(stream);
    koffi.free(vtable);
  });
});
