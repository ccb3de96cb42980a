/**
 * Issue 38 §4, the Windows FFI boundary of the computer's facts: kernel32, ntdll and advapi32 through koffi,
 * exposed as a table of the C functions (`FactsWin32Api`) so `windows.ts` is unit-tested on Linux with a fake
 * table, as `../elevation/windows-elevation-native.ts` is. Struct layouts are those of x64 Windows
 * (`factsWin32Types`, checked with koffi by the tests: sizeof(MEMORYSTATUSEX) = 64, SYSTEM_POWER_STATUS = 12,
 * OSVERSIONINFOW = 276). Every function is part of every Windows since Vista: nothing to install, no permission.
 */
import type { Koffi } from "../input/koffi.ts";
import { loadKoffi } from "../input/koffi.ts";

/** A 64-bit count as koffi hands it back (a number, or a BigInt past 2^53). */
export type U64 = number | bigint;

/** MEMORYSTATUSEX; `dwLength` must be 64 on input. Bytes. */
export type MemoryStatusEx = {
  dwLength: number;
  dwMemoryLoad: number;
  ullTotalPhys: U64;
  ullAvailPhys: U64;
  ullTotalPageFile: U64;
  ullAvailPageFile: U64;
  ullTotalVirtual: U64;
  ullAvailVirtual: U64;
  ullAvailExtendedVirtual: U64;
};

/** SYSTEM_POWER_STATUS: `BatteryFlag` 128 no battery, 255 unknown, bit 8 charging; `BatteryLifePercent` 255 unknown. */
export type SystemPowerStatus = {
  ACLineStatus: number;
  BatteryFlag: number;
  BatteryLifePercent: number;
  SystemStatusFlag: number;
  BatteryLifeTime: number;
  BatteryFullLifeTime: number;
};

/** OSVERSIONINFOW; `dwOSVersionInfoSize` must be 276 on input. */
export type OsVersionInfo = {
  dwOSVersionInfoSize: number;
  dwMajorVersion: number;
  dwMinorVersion: number;
  dwBuildNumber: number;
  dwPlatformId: number;
  szCSDVersion: number[];
};

export const SIZEOF_MEMORYSTATUSEX = 64;
export const SIZEOF_SYSTEM_POWER_STATUS = 12;
export const SIZEOF_OSVERSIONINFOW = 276;

/** The functions the facts call, by their C names (BOOL results as booleans, NTSTATUS and LSTATUS as numbers). */
export interface FactsWin32Api {
  /** kernel32: fills `status` in place. */
  GlobalMemoryStatusEx(status: MemoryStatusEx): boolean;
  /** kernel32: bit n set = drive letter A + n exists. */
  GetLogicalDrives(): number;
  /** kernel32: `DRIVE_FIXED` (3) for an internal disk; `root` like "C:\\". */
  GetDriveTypeW(root: string): number;
  /** kernel32: writes the bytes free to this user, the size and the bytes free into the arrays' first cells. */
  GetDiskFreeSpaceExW(root: string, freeToCaller: U64[], total: U64[], totalFree: U64[]): boolean;
  /** kernel32: fills `status` in place. */
  GetSystemPowerStatus(status: SystemPowerStatus): boolean;
  /** kernel32: milliseconds since the computer started. */
  GetTickCount64(): U64;
  /** kernel32: logical processors of `group` (`ALL_PROCESSOR_GROUPS`, 0xFFFF: all of them). */
  GetActiveProcessorCount(group: number): number;
  /** ntdll: the true version (GetVersionEx lies to programs without a manifest); 0 (STATUS_SUCCESS) when filled. */
  RtlGetVersion(info: OsVersionInfo): number;
  /**
   * advapi32: a registry value of `hkey` (HKEY_LOCAL_MACHINE, sign-extended: -2147483646) into `data`; `size[0]`:
   * the buffer's bytes on input, the value's on output. 0 (ERROR_SUCCESS) when read.
   */
  RegGetValueW(
    hkey: number,
    subKey: string,
    value: string,
    flags: number,
    type: null,
    data: Buffer,
    size: number[],
  ): number;
}

type TypeObject = ReturnType<Koffi["struct"]>;
export type FactsWin32Types = {
  MEMORYSTATUSEX: TypeObject;
  SYSTEM_POWER_STATUS: TypeObject;
  OSVERSIONINFOW: TypeObject;
};
const typesByKoffi = new WeakMap<object, FactsWin32Types>();

/** Declares the structs in `koffi` (once per koffi instance: type names are global to it). */
export function factsWin32Types(koffi: Koffi): FactsWin32Types {
  const known = typesByKoffi.get(koffi);
  if (known) return known;
  const MEMORYSTATUSEX = koffi.struct("AtelierMEMORYSTATUSEX", {
    dwLength: "uint32_t",
    dwMemoryLoad: "uint32_t",
    ullTotalPhys: "uint64_t",
    ullAvailPhys: "uint64_t",
    ullTotalPageFile: "uint64_t",
    ullAvailPageFile: "uint64_t",
    ullTotalVirtual: "uint64_t",
    ullAvailVirtual: "uint64_t",
    ullAvailExtendedVirtual: "uint64_t",
  });
  const SYSTEM_POWER_STATUS = koffi.struct("AtelierSYSTEM_POWER_STATUS", {
    ACLineStatus: "uint8_t",
    BatteryFlag: "uint8_t",
    BatteryLifePercent: "uint8_t",
    SystemStatusFlag: "uint8_t",
    BatteryLifeTime: "uint32_t",
    BatteryFullLifeTime: "uint32_t",
  });
  const OSVERSIONINFOW = koffi.struct("AtelierOSVERSIONINFOW", {
    dwOSVersionInfoSize: "uint32_t",
    dwMajorVersion: "uint32_t",
    dwMinorVersion: "uint32_t",
    dwBuildNumber: "uint32_t",
    dwPlatformId: "uint32_t",
    szCSDVersion: koffi.array("uint16_t", 128),
  });
  const types = { MEMORYSTATUSEX, SYSTEM_POWER_STATUS, OSVERSIONINFOW };
  typesByKoffi.set(koffi, types);
  return types;
}

/** kernel32.dll's functions, as koffi declarations (BOOL is `int`: koffi's `bool` reads one byte). */
export const KERNEL32_FACTS = {
  GlobalMemoryStatusEx: "int __stdcall GlobalMemoryStatusEx(_Inout_ AtelierMEMORYSTATUSEX *status)",
  GetLogicalDrives: "uint32_t __stdcall GetLogicalDrives()",
  GetDriveTypeW: "uint32_t __stdcall GetDriveTypeW(str16 root)",
  GetDiskFreeSpaceExW:
    "int __stdcall GetDiskFreeSpaceExW(str16 root, _Out_ uint64_t *freeToCaller, _Out_ uint64_t *total, " +
    "_Out_ uint64_t *totalFree)",
  GetSystemPowerStatus: "int __stdcall GetSystemPowerStatus(_Out_ AtelierSYSTEM_POWER_STATUS *status)",
  GetTickCount64: "uint64_t __stdcall GetTickCount64()",
  GetActiveProcessorCount: "uint32_t __stdcall GetActiveProcessorCount(uint16_t group)",
} as const;

/** ntdll.dll's function. */
export const NTDLL_FACTS = {
  RtlGetVersion: "int32_t __stdcall RtlGetVersion(_Inout_ AtelierOSVERSIONINFOW *info)",
} as const;

/** advapi32.dll's function (HKEY as a pointer-sized integer: the predefined keys are sign-extended constants). */
export const ADVAPI32_FACTS = {
  RegGetValueW:
    "int32_t __stdcall RegGetValueW(intptr_t hkey, str16 subKey, str16 value, uint32_t flags, void *type, " +
    "void *data, _Inout_ uint32_t *size)",
} as const;

type Fn = (...args: unknown[]) => unknown;

/** Binds the functions above. @throws when koffi or a library cannot be loaded (the facts are then left out). */
export async function openFactsWin32Api(): Promise<FactsWin32Api> {
  const koffi = await loadKoffi();
  factsWin32Types(koffi);
  const bind = <T extends Record<string, string>>(library: string, declarations: T) => {
    const handle = koffi.load(library);
    const out = {} as Record<keyof T, Fn>;
    for (const [name, declaration] of Object.entries(declarations)) out[name as keyof T] = handle.func(declaration);
    return out;
  };
  const kernel32 = bind("kernel32.dll", KERNEL32_FACTS);
  const ntdll = bind("ntdll.dll", NTDLL_FACTS);
  const advapi32 = bind("advapi32.dll", ADVAPI32_FACTS);
  return {
    GlobalMemoryStatusEx: (status) => Boolean(kernel32.GlobalMemoryStatusEx(status)),
    GetLogicalDrives: () => Number(kernel32.GetLogicalDrives()),
    GetDriveTypeW: (root) => Number(kernel32.GetDriveTypeW(root)),
    GetDiskFreeSpaceExW: (root, freeToCaller, total, totalFree) =>
      Boolean(kernel32.GetDiskFreeSpaceExW(root, freeToCaller, total, totalFree)),
    GetSystemPowerStatus: (status) => Boolean(kernel32.GetSystemPowerStatus(status)),
    GetTickCount64: () => kernel32.GetTickCount64() as U64,
    GetActiveProcessorCount: (group) => Number(kernel32.GetActiveProcessorCount(group)),
    RtlGetVersion: (info) => Number(ntdll.RtlGetVersion(info)),
    RegGetValueW: (hkey, subKey, value, flags, type, data, size) =>
      Number(advapi32.RegGetValueW(hkey, subKey, value, flags, type, data, size)),
  };
}
