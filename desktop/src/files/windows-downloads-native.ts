/**
 * Issue 38 §2 « Files both ways, with consent », Windows only: the Downloads folder as Windows knows it
 * (`SHGetKnownFolderPath(FOLDERID_Downloads)`, shell32; the string freed with `CoTaskMemFree`, ole32), through
 * koffi like the rest of the app's Windows calls. The folder may have been moved (another drive, OneDrive), which
 * `%USERPROFILE%\Downloads` would miss. Loaded only on Windows (`downloads.ts` imports it lazily).
 */
import { type Koffi, loadKoffi } from "../input/koffi.ts";

/** FOLDERID_Downloads = {374DE290-123F-4565-9164-39C4925E467B}, as a GUID's fields. */
export const FOLDERID_DOWNLOADS = {
  Data1: 0x374de290,
  Data2: 0x123f,
  Data3: 0x4565,
  Data4: [0x91, 0x64, 0x39, 0xc4, 0x92, 0x5e, 0x46, 0x7b],
} as const;

/** The two functions, by their C names (an HRESULT as a number; the path written into `path[0]`). */
export type KnownFolderApi = {
  SHGetKnownFolderPath(id: typeof FOLDERID_DOWNLOADS, flags: number, token: null, path: unknown[]): number;
  CoTaskMemFree(pointer: unknown): void;
  /** Reads the NUL-terminated UTF-16 string at `pointer`. */
  decode(pointer: unknown): string;
};

const declared = new WeakMap<object, KnownFolderApi>();

/** Declares the functions in `koffi` (once per koffi instance: type names are global to it). */
export function knownFolderApi(koffi: Koffi): KnownFolderApi {
  const known = declared.get(koffi);
  if (known) return known;
  koffi.struct("AtelierKNOWNFOLDERID", {
    Data1: "uint32_t",
    Data2: "uint16_t",
    Data3: "uint16_t",
    Data4: koffi.array("uint8_t", 8),
  });
  const shell32 = koffi.load("shell32.dll");
  const ole32 = koffi.load("ole32.dll");
  const api: KnownFolderApi = {
    SHGetKnownFolderPath: shell32.func(
      "int32_t __stdcall SHGetKnownFolderPath(AtelierKNOWNFOLDERID *id, uint32_t flags, void *token, _Out_ void **path)",
    ) as KnownFolderApi["SHGetKnownFolderPath"],
    CoTaskMemFree: ole32.func("void __stdcall CoTaskMemFree(void *pointer)") as KnownFolderApi["CoTaskMemFree"],
    decode: (pointer) => koffi.decode(pointer, "char16_t", -1) as string,
  };
  declared.set(koffi, api);
  return api;
}

/**
 * The Downloads folder's absolute path, or null when Windows cannot say (an error HRESULT, koffi missing).
 * `api`: the functions (tests give a fake table). Never throws.
 */
export async function knownDownloadsFolder(api?: KnownFolderApi): Promise<string | null> {
  try {
    const table = api ?? knownFolderApi(await loadKoffi());
    const out: unknown[] = [null];
    const result = table.SHGetKnownFolderPath(FOLDERID_DOWNLOADS, 0, null, out);
    const pointer = out[0];
    try {
      return result === 0 && pointer ? table.decode(pointer) || null : null;
    } finally {
      if (pointer) table.CoTaskMemFree(pointer);
    }
  } catch {
    return null;
  }
}
