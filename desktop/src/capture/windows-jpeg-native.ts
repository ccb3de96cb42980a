/**
 * The Windows JPEG encoder's FFI boundary (issue 26): GDI+'s flat C API
 * (gdiplus.dll), ole32's memory streams and kernel32's global memory through
 * koffi, exposed as a table of the C functions (`GdiplusApi`) so
 * `windows-jpeg.ts` is unit-tested on Linux with a fake table. The two
 * `IStream` methods are called through the object's vtable (`comMethod`,
 * tested on Linux against a native fake object). x64 struct layouts
 * (`gdiplusTypes`, checked with koffi by the tests).
 */
import type { Koffi } from "../input/koffi.ts";
import { loadKoffi } from "../input/koffi.ts";

/** A GUID as its four fields (`Data4`: 8 bytes). */
export type Guid = { Data1: number; Data2: number; Data3: number; Data4: number[] };
/** GdiplusStartupInput (24 bytes on x64). */
export type GdiplusStartupInput = {
  GdiplusVersion: number;
  DebugEventCallback: null;
  SuppressBackgroundThread: number;
  SuppressExternalCodecs: number;
};
/** One EncoderParameter; `Value` holds the values (ULONGs here), passed to GDI+ through a pointer. */
export type EncoderParameter = { Guid: Guid; NumberOfValues: number; Type: number; Value: number[] };
/** EncoderParameters with one parameter (40 bytes on x64). */
export type EncoderParameters = { Count: number; Parameter: [EncoderParameter] };

/** The functions the GDI+ encoder calls, by their C names (GDI+ `Status` and `HRESULT`: 0 is success). */
export interface GdiplusApi {
  /** Writes the token into `token[0]`; `output` may be null since the background thread is kept. */
  GdiplusStartup(token: unknown[], input: GdiplusStartupInput, output: null): number;
  GdiplusShutdown(token: unknown): void;
  /** A bitmap over `scan0` (not copied: valid while `scan0` is), `stride` bytes a row; writes it into `bitmap[0]`. */
  GdipCreateBitmapFromScan0(
    width: number,
    height: number,
    stride: number,
    format: number,
    scan0: Uint8Array,
    bitmap: unknown[],
  ): number;
  GdipSaveImageToStream(image: unknown, stream: unknown, encoder: Guid, parameters: EncoderParameters): number;
  GdipDisposeImage(image: unknown): number;
  /** ole32: a stream over growing global memory, freed with the stream when `deleteOnRelease`; into `stream[0]`. */
  CreateStreamOnHGlobal(memory: null, deleteOnRelease: boolean, stream: unknown[]): number;
  /** ole32: the stream's global memory handle, into `memory[0]` (the stream still owns it). */
  GetHGlobalFromStream(stream: unknown, memory: unknown[]): number;
  /** kernel32: the memory's address, null on failure. */
  GlobalLock(memory: unknown): unknown;
  GlobalUnlock(memory: unknown): boolean;
  /** kernel32: bytes allocated (may exceed what the stream wrote). */
  GlobalSize(memory: unknown): number;
  /** `IStream::Seek` (vtable slot 5): writes the new position, bytes, into `position[0]`. */
  IStream_Seek(stream: unknown, move: number, origin: number, position: number[]): number;
  /** `IUnknown::Release` (vtable slot 2): the references left. */
  IStream_Release(stream: unknown): number;
  /** Not a Win32 function: `bytes` bytes at `pointer` as a Uint8Array, without copy (koffi.view). */
  view(pointer: unknown, bytes: number): Uint8Array;
}

export type GdiplusOpenResult = { api: GdiplusApi } | { reason: string };

/** "557CF401-1A04-11D3-9A73-0000F81EF32E" (braces allowed) → its fields. Throws on a malformed text. */
export function parseGuid(text: string): Guid {
  const match = /^\{?([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})\}?$/i.exec(text);
  if (!match) throw new Error(`GUID invalide : ${text}`);
  const tail = match[4]! + match[5]!;
  return {
    Data1: Number.parseInt(match[1]!, 16),
    Data2: Number.parseInt(match[2]!, 16),
    Data3: Number.parseInt(match[3]!, 16),
    Data4: Array.from({ length: 8 }, (_, i) => Number.parseInt(tail.slice(i * 2, i * 2 + 2), 16)),
  };
}

type TypeObject = ReturnType<Koffi["struct"]>;
/** The koffi types of the GDI+ structs and of the two IStream methods. */
export type GdiplusTypes = Record<
  "GUID" | "GdiplusStartupInput" | "EncoderParameter" | "EncoderParameters" | "IStreamSeek" | "IUnknownRelease",
  TypeObject
>;
const typesByKoffi = new WeakMap<object, GdiplusTypes>();

/** Declares the structs and method prototypes in `koffi` (once per koffi instance). */
export function gdiplusTypes(koffi: Koffi): GdiplusTypes {
  const known = typesByKoffi.get(koffi);
  if (known) return known;
  const GUID = koffi.struct("AtelierGUID", {
    Data1: "uint32_t",
    Data2: "uint16_t",
    Data3: "uint16_t",
    Data4: koffi.array("uint8_t", 8),
  });
  const GdiplusStartupInput = koffi.struct("AtelierGdiplusStartupInput", {
    GdiplusVersion: "uint32_t",
    DebugEventCallback: "void *",
    SuppressBackgroundThread: "int32_t",
    SuppressExternalCodecs: "int32_t",
  });
  const EncoderParameter = koffi.struct("AtelierEncoderParameter", {
    Guid: GUID,
    NumberOfValues: "uint32_t",
    Type: "uint32_t",
    Value: "void *",
  });
  const EncoderParameters = koffi.struct("AtelierEncoderParameters", {
    Count: "uint32_t",
    Parameter: koffi.array(EncoderParameter, 1),
  });
  const IStreamSeek = koffi.proto(
    "int32_t __stdcall AtelierIStreamSeek(void *self, int64_t move, uint32_t origin, _Out_ uint64_t *position)",
  );
  const IUnknownRelease = koffi.proto("uint32_t __stdcall AtelierIUnknownRelease(void *self)");
  const types = { GUID, GdiplusStartupInput, EncoderParameter, EncoderParameters, IStreamSeek, IUnknownRelease };
  typesByKoffi.set(koffi, types);
  return types;
}

/** Vtable slots (objidl.h): IUnknown's three methods, ISequentialStream's Read/Write, then IStream's. */
export const VTABLE_SLOT = { Release: 2, Seek: 5 } as const;

/**
 * Calls method `slot` of the COM object at `object` with prototype `proto`:
 * the object's first pointer is its vtable, an array of function pointers;
 * `object` itself is the first argument.
 */
export function comMethod(koffi: Koffi, object: unknown, slot: number, proto: TypeObject, ...args: unknown[]): unknown {
  const vtable: unknown = koffi.decode(object, "void *");
  const method: unknown = koffi.decode(vtable, slot * koffi.sizeof("void *"), "void *");
  return koffi.call(method, proto, object, ...args);
}

/**
 * Calls `call` with `parameters` as GDI+ reads them: each parameter's
 * `Value` (ULONGs) copied into native memory that its `Value` points to,
 * freed once `call` returns. Returns what `call` returns (a GDI+ status).
 */
export function withNativeValues(
  koffi: Koffi,
  parameters: EncoderParameters,
  call: (native: { Count: number; Parameter: unknown[] }) => unknown,
): number {
  const [parameter] = parameters.Parameter;
  const values: unknown = koffi.alloc("uint32_t", Math.max(1, parameter.Value.length));
  try {
    parameter.Value.forEach((value, index) => koffi.encode(values, index * 4, "uint32_t", value));
    return call({ Count: parameters.Count, Parameter: [{ ...parameter, Value: values }] }) as number;
  } finally {
    koffi.free(values);
  }
}

/** gdiplus.dll, ole32.dll and kernel32.dll functions, as koffi declarations. */
export const GDIPLUS_FUNCTIONS = {
  GdiplusStartup:
    "int __stdcall GdiplusStartup(_Out_ uintptr_t *token, const AtelierGdiplusStartupInput *input, void *output)",
  GdiplusShutdown: "void __stdcall GdiplusShutdown(uintptr_t token)",
  GdipCreateBitmapFromScan0:
    "int __stdcall GdipCreateBitmapFromScan0(int width, int height, int stride, int format, void *scan0, " +
    "_Out_ void **bitmap)",
  GdipSaveImageToStream:
    "int __stdcall GdipSaveImageToStream(void *image, void *stream, const AtelierGUID *encoder, " +
    "const AtelierEncoderParameters *parameters)",
  GdipDisposeImage: "int __stdcall GdipDisposeImage(void *image)",
} as const;
export const OLE32_FUNCTIONS = {
  CreateStreamOnHGlobal:
    "int32_t __stdcall CreateStreamOnHGlobal(void *memory, int deleteOnRelease, _Out_ void **stream)",
  GetHGlobalFromStream: "int32_t __stdcall GetHGlobalFromStream(void *stream, _Out_ void **memory)",
} as const;
export const KERNEL32_FUNCTIONS = {
  GlobalLock: "void * __stdcall GlobalLock(void *memory)",
  GlobalUnlock: "int __stdcall GlobalUnlock(void *memory)",
  GlobalSize: "size_t __stdcall GlobalSize(void *memory)",
} as const;

/** Why the Windows encoder cannot work (French, shown to both sides). */
export const GDIPLUS_UNAVAILABLE =
  "L'encodeur JPEG de Windows (GDI+, gdiplus.dll) n'a pas pu être chargé : l'écran ne peut pas être montré au technicien.";

type Fn = (...args: unknown[]) => unknown;

function bindAll<Names extends string>(library: { func(declaration: string): Fn }, table: Record<Names, string>) {
  const bound = {} as Record<Names, Fn>;
  for (const name of Object.keys(table) as Names[]) bound[name] = library.func(table[name]);
  return bound;
}

/** Binds GDI+, ole32 and kernel32 (issue 26). Never throws: a missing piece gives `{ reason }` in French. */
export async function openGdiplus(): Promise<GdiplusOpenResult> {
  try {
    const koffi = await loadKoffi();
    const t = gdiplusTypes(koffi);
    const g = bindAll(koffi.load("gdiplus.dll"), GDIPLUS_FUNCTIONS);
    const o = bindAll(koffi.load("ole32.dll"), OLE32_FUNCTIONS);
    const k = bindAll(koffi.load("kernel32.dll"), KERNEL32_FUNCTIONS);
    const api: GdiplusApi = {
      GdiplusStartup: (token, input, output) => g.GdiplusStartup(token, input, output) as number,
      GdiplusShutdown: (token) => void g.GdiplusShutdown(token),
      GdipCreateBitmapFromScan0: (width, height, stride, format, scan0, bitmap) =>
        g.GdipCreateBitmapFromScan0(width, height, stride, format, scan0, bitmap) as number,
      GdipSaveImageToStream: (image, stream, encoder, parameters) =>
        withNativeValues(koffi, parameters, (native) => g.GdipSaveImageToStream(image, stream, encoder, native)),
      GdipDisposeImage: (image) => g.GdipDisposeImage(image) as number,
      CreateStreamOnHGlobal: (memory, deleteOnRelease, stream) =>
        o.CreateStreamOnHGlobal(memory, deleteOnRelease ? 1 : 0, stream) as number,
      GetHGlobalFromStream: (stream, memory) => o.GetHGlobalFromStream(stream, memory) as number,
      GlobalLock: (memory) => k.GlobalLock(memory),
      GlobalUnlock: (memory) => Boolean(k.GlobalUnlock(memory)),
      GlobalSize: (memory) => Number(k.GlobalSize(memory)),
      IStream_Seek(stream, move, origin, position) {
        const out = [0];
        const result = comMethod(koffi, stream, VTABLE_SLOT.Seek, t.IStreamSeek, move, origin, out) as number;
        position[0] = Number(out[0]);
        return result;
      },
      IStream_Release: (stream) => comMethod(koffi, stream, VTABLE_SLOT.Release, t.IUnknownRelease) as number,
      view: (pointer, bytes) => new Uint8Array(koffi.view(pointer, bytes)),
    };
    return { api };
  } catch {
    return { reason: GDIPLUS_UNAVAILABLE };
  }
}
